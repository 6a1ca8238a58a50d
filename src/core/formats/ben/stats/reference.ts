import { FormatError } from '../../../errors.js';
import { RunBuffer, type Plan } from '../plan.js';

/**
 * A reference plan from a file: a JSON list of district labels (node i → district), a JSON
 * object with an `assignment` list (one line of cat's JSONL), or a JSONL file of exactly one such
 * line. Labels are integers 0..65535, as BEN stores them.
 */
export function parseReferencePlan(text: string, field = 'reference'): Plan {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  // Several lines that each open an object are JSONL plans (a pretty-printed object's do not all).
  if (lines.length > 1 && lines.every((l) => l.trim().startsWith('{'))) throw new FormatError('corrupt', `${lines.length} plans; a reference is one plan`, { field });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new FormatError('corrupt', `not JSON (${e instanceof Error ? e.message : String(e)})`, { field });
  }
  const list = Array.isArray(value) ? value : value !== null && typeof value === 'object' && Array.isArray((value as { assignment?: unknown }).assignment) ? (value as { assignment: unknown[] }).assignment : undefined;
  if (!list) throw new FormatError('corrupt', 'neither a list of districts nor an object with an "assignment" list', { field });
  list.forEach((v, i) => {
    if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 0xffff) throw new FormatError('corrupt', `district ${JSON.stringify(v)} of node ${i} is not an integer 0..65535`, { field: `${field} assignment[${i}]` });
  });
  return new RunBuffer().fromAssignment(list as number[]);
}

