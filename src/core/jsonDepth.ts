import { FormatError } from './errors.js';

/**
 * JSON lines come from anywhere. JSON.parse reads any nesting, but everything after it that walks
 * the value (JSON.stringify, type inference, error messages) recurses once per level and
 * overflows the stack a few thousand levels down. No record an importer reads nests this deep.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * Refuses JSON text whose arrays and objects nest deeper than MAX_JSON_DEPTH, before it is
 * parsed. Counts brackets outside strings in one pass; says nothing about validity otherwise.
 */
export function checkJsonDepth(text: string, where: { offset?: number; field?: string }): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) throw new FormatError('limit', `JSON nested deeper than ${MAX_JSON_DEPTH} arrays or objects`, where);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}
