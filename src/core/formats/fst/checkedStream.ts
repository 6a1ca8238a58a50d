import type { FormatError } from '../../errors.js';
import { type Damage, reportDamage } from '../../integrity.js';
import type { TaskContext } from '../../model.js';
import { escapeKey } from './keyText.js';
import type { FstReader } from './reader.js';
import { KeyStream } from './stream.js';

/**
 * The key stream of every path whose keys leave (cat, converters). A strict read stops at a node
 * that does not decode, with its location; a salvage reports it through the integrity log, leaves
 * out the keys under it and walks on, so its output is the keys whose nodes read cleanly, in order.
 *
 * `row` says how many keys have left so far: the left-out keys would have started there.
 */
export function checkedKeyStream(reader: FstReader, ctx: TaskContext, row: () => number): KeyStream {
  // A strict read keeps the node's own FormatError (its field names the node): it is already
  // located damage, and callers that do not salvage report it as such.
  if (!ctx.integrity?.salvage) return new KeyStream(reader);
  // Nodes are shared (the fst is a DAG): one damaged node can lie below many, even 2^40, paths.
  // Each is reported once, at the first path that meets it; the others are left out with it.
  const reported = new Set<string>();
  return new KeyStream(reader, {
    onDamaged: (e, prefix) => {
      const id = `${e.field}@${e.offset}`;
      if (!reported.has(id)) {
        reported.add(id);
        reportDamage(ctx, subtreeDamage(e, prefix, row()));
      }
      return true;
    },
  });
}

/** A damaged node as the unit left out: the node, and the keys through it (the first path that met it). */
export function subtreeDamage(e: FormatError, prefix: Uint8Array, row: number): Damage {
  return {
    unit: `${e.field ?? 'node'} (every key through it, from "${escapeKey(prefix)}…")`,
    detail: e.detail,
    offset: e.offset,
    code: e.code,
    rows: { from: row },
  };
}
