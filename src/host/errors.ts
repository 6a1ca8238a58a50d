import { FormatError, describeError } from '../core/errors.js';
import { RpcError, type ErrorDTO } from '../protocol/rpc.js';

/** Any thrown value as the error a client receives: located format errors keep their place. */
export function toErrorDTO(e: unknown): ErrorDTO {
  if (e instanceof FormatError) return { message: e.message, code: e.code, offset: e.offset, field: e.field };
  if (e instanceof RpcError) return e.error;
  return { message: describeError(e), code: 'internal' };
}
