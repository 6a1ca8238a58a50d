import { field } from '../../describe.js';
import type { Field } from '../../model.js';

/**
 * A stream's frame and sample counts as `info` and the summary give them: exact once a pass
 * counted them (BEN: the frame headers; XBEN: a decode), null before. A bundle's trusted header
 * gives `samples` without a pass; `counted` is true only when both are exact.
 */
export interface StreamCounts {
  readonly frames: number | null;
  readonly samples: number | null;
  readonly counted: boolean;
}

/** Shown where a count is not known yet: `info --fast`, or the viewer before its count ends. */
export const NOT_COUNTED = 'not counted';

/**
 * The summary lines of the counts. `partial` is how far a running count got (a viewer's
 * background count), shown as "≥ n" rather than "not counted" once it is past zero.
 */
export function countFields(c: StreamCounts, partial?: { frames: number; samples: number }): Field[] {
  const one = (name: string, exact: number | null, sofar: number | undefined) =>
    exact !== null
      ? field(name, exact, undefined, { display: String(exact) })
      : sofar
        ? field(name, sofar, undefined, { display: `≥ ${sofar}` })
        : field(name, null, undefined, { display: NOT_COUNTED });
  return [one('frames', c.frames, partial?.frames), one('samples', c.samples, partial?.samples)];
}
