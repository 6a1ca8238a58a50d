import { readFileSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/**
 * Runs axe-core (WCAG 2 A/AA rules, colour contrast included) in a page or frame and returns the
 * serious and critical violations. The page must bypass CSP, since axe is injected as a script.
 */
export async function seriousViolations(target: Page | Frame): Promise<Violation[]> {
  await target.addScriptTag({ content: AXE });
  const result = await target.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(ctx: unknown, opts: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}
