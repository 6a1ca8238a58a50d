import { PLAN_HELD_PARAM, type PlanPanelData } from '../../src/protocol/protocol.js';
import type { PanelContext } from './index.js';

/** The plan last drawn by a stepping plan panel: the base the host's next `changes` apply to. */
let held: { sample: number; values: readonly number[] } | undefined;

/**
 * The response with every node's district: as sent, or the held plan with its `changes` applied.
 * Undefined when the changes are from a plan this page does not hold: it then asks again for the
 * whole plan. A stepping panel's plan is kept and named in PLAN_HELD_PARAM without a redraw, so the
 * next step's request carries it.
 */
export function planValues(data: PlanPanelData, ctx: PanelContext): PlanPanelData | undefined {
  let full = data;
  if (data.changes) {
    const c = data.changes;
    if (!held || held.sample !== c.from) {
      held = undefined;
      queueMicrotask(() => ctx.set(PLAN_HELD_PARAM, 0));
      return undefined;
    }
    const values = held.values.slice();
    // A node outside the plan (a hostile or stale answer) is ignored, never a longer plan.
    for (let i = 0; i < c.nodes.length; i++) if (c.nodes[i]! >= 0 && c.nodes[i]! < values.length) values[c.nodes[i]!] = c.districts[i]!;
    full = { ...data, values };
  }
  if (full.step && full.mode === 'district') {
    held = { sample: full.step.value, values: full.values };
    ctx.set(PLAN_HELD_PARAM, full.step.value, false);
  }
  return full;
}
