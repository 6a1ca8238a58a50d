import { MAX_BYTES_REQUEST, MAX_PAGE, type ViewOps } from './protocol.js';

/**
 * Checks a request from the webview before the host acts on it: the webview renders content
 * from untrusted files, so the host trusts nothing it sends. Returns what is wrong, or undefined.
 */
export function validateViewRequest(op: string, params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null) return 'params must be an object';
  const p = params as Record<string, unknown>;
  const int = (key: string, max = Number.MAX_SAFE_INTEGER) =>
    Number.isSafeInteger(p[key]) && (p[key] as number) >= 0 && (p[key] as number) <= max ? undefined : `${key} must be an integer in [0, ${max}]`;
  const str = (key: string) => (typeof p[key] === 'string' && (p[key] as string).length <= 256 ? undefined : `${key} must be a short string`);
  const values = (key: string) => {
    const v = p[key];
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${key} must be an object`;
    for (const [k, x] of Object.entries(v)) {
      if (k.length > 64 || !['string', 'number', 'boolean'].includes(typeof x) || (typeof x === 'string' && x.length > 4096)) return `${key}.${k} is not a simple value`;
    }
    return undefined;
  };
  const checks: Record<keyof ViewOps, () => (string | undefined)[]> = {
    children: () => [str('node'), int('from'), int('count', MAX_PAGE)],
    page: () => [str('table'), int('from'), int('count', MAX_PAGE)],
    table: () => [str('table'), values('params')],
    count: () => [str('table')],
    bytes: () => [int('offset'), int('length', MAX_BYTES_REQUEST)],
    panel: () => [str('panel'), values('params')],
    search: () => [str('search'), values('params')],
    top: () => [],
  };
  const check = Object.prototype.hasOwnProperty.call(checks, op) ? checks[op as keyof ViewOps] : undefined;
  if (!check) return `unknown operation ${JSON.stringify(op)}`;
  return check().find((x) => x !== undefined);
}
