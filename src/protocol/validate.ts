import { EXPORT_KINDS, MAX_BYTES_REQUEST, MAX_EXPORT_CHARS, MAX_PAGE, type CompareOps, type ViewOps } from './protocol.js';

/** The checks of one request's parameters, each returning what is wrong or undefined. */
function fieldChecks(p: Record<string, unknown>) {
  const int = (key: string, max = Number.MAX_SAFE_INTEGER) =>
    Number.isSafeInteger(p[key]) && (p[key] as number) >= 0 && (p[key] as number) <= max ? undefined : `${key} must be an integer in [0, ${max}]`;
  const str = (key: string) => (typeof p[key] === 'string' && (p[key] as string).length <= 256 ? undefined : `${key} must be a short string`);
  const values = (key: string) => {
    const v = p[key];
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${key} must be an object`;
    for (const [k, x] of Object.entries(v)) {
      if (k.length > 64 || !['string', 'number', 'boolean'].includes(typeof x) || (typeof x === 'string' && x.length > 4096))
        return `${key}.${k} is not a simple value`;
    }
    return undefined;
  };
  const oneOf = (key: string, allowed: readonly string[]) => (allowed.includes(p[key] as string) ? undefined : `${key} must be one of ${allowed.join(', ')}`);
  const text = (key: string, max: number) =>
    typeof p[key] === 'string' && (p[key] as string).length <= max ? undefined : `${key} must be a string of at most ${max} characters`;
  return { int, str, values, oneOf, text };
}

/** Runs the checks of `op` (a table of them per operation), refusing unknown operations and non-objects. */
function validateWith<K extends string>(
  op: string,
  params: unknown,
  checks: (f: ReturnType<typeof fieldChecks>) => Record<K, () => (string | undefined)[]>,
): string | undefined {
  if (typeof params !== 'object' || params === null) return 'params must be an object';
  const table = checks(fieldChecks(params as Record<string, unknown>));
  const check = Object.prototype.hasOwnProperty.call(table, op) ? table[op as K] : undefined;
  if (!check) return `unknown operation ${JSON.stringify(op)}`;
  return check().find((x) => x !== undefined);
}

/**
 * Checks a request from the webview before the host acts on it: the webview renders content
 * from untrusted files, so the host trusts nothing it sends. Returns what is wrong, or undefined.
 */
export function validateViewRequest(op: string, params: unknown): string | undefined {
  return validateWith<keyof ViewOps>(op, params, ({ int, str, values, oneOf, text }) => ({
    children: () => [str('node'), int('from'), int('count', MAX_PAGE)],
    page: () => [str('table'), int('from'), int('count', MAX_PAGE)],
    table: () => [str('table'), values('params')],
    count: () => [str('table')],
    bytes: () => [int('offset'), int('length', MAX_BYTES_REQUEST)],
    panel: () => [str('panel'), values('params')],
    search: () => [str('search'), values('params')],
    top: () => [],
    pickGraph: () => [],
    pickShapes: () => [],
    pickReference: () => [],
    saveExport: () => [oneOf('kind', EXPORT_KINDS), str('name'), text('data', MAX_EXPORT_CHARS)],
  }));
}

/** The same for a compare view's requests (CompareOps). */
export function validateCompareRequest(op: string, params: unknown): string | undefined {
  return validateWith<keyof CompareOps>(op, params, ({ int, str, oneOf }) => ({
    children: () => [oneOf('side', ['a', 'b']), str('node'), int('from'), int('count', MAX_PAGE)],
    diff: () => [],
    page: () => [int('from'), int('count', MAX_PAGE)],
    reveal: () => [int('row')],
  }));
}
