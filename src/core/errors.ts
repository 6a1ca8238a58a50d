/**
 * The one error type every decoder throws for bad input. It names what broke (`code`), where
 * (`offset`, absolute in the file) and which field was being read, so the viewer can point at
 * the bytes and the CLI can print a useful line instead of a stack trace.
 */
export type FormatErrorCode =
  /** The data ends before a field or section it declares. */
  | 'truncated'
  /** The bytes do not start with the format's magic or banner. */
  | 'bad-magic'
  /** A version or variant this reader does not know. */
  | 'unsupported-version'
  /** An offset or length points outside the file or its section. */
  | 'out-of-range'
  /** A value breaks a rule of the format (a bad count, an unsorted list, an unknown tag...). */
  | 'corrupt'
  /** A stored checksum or hash does not match the bytes. */
  | 'checksum'
  /** A value exceeds a safety cap (allocation size, nesting depth, decompressed size). */
  | 'limit'
  /** A feature the format allows but this reader does not implement. */
  | 'unsupported'
  /** The operation was cancelled by the user. */
  | 'cancelled'
  /** A file or value given beside the data (a conversion's graph or node map) does not fit it; the data is not damaged. */
  | 'bad-input';

export class FormatError extends Error {
  override readonly name = 'FormatError';
  readonly code: FormatErrorCode;
  /** Absolute byte offset in the file where the problem was found, when known. */
  readonly offset: number | undefined;
  /** The field or section being read, in the spec's words. */
  readonly field: string | undefined;
  /** The bare message, without the location prefix that `message` carries. */
  readonly detail: string;

  constructor(code: FormatErrorCode, detail: string, where: { offset?: number; field?: string } = {}) {
    super(FormatError.compose(detail, where.offset, where.field));
    this.code = code;
    this.offset = where.offset;
    this.field = where.field;
    this.detail = detail;
  }

  private static compose(detail: string, offset?: number, field?: string): string {
    const at = offset === undefined ? '' : ` at offset ${offset} (0x${offset.toString(16)})`;
    return field === undefined ? `${detail}${at}` : `${field}${at}: ${detail}`;
  }
}

/**
 * The first line of a catch block that recovers from bad input only: anything that is not a
 * FormatError is a bug and is rethrown (it must not be shown as a damaged file); after the call
 * the caught value is typed as a FormatError. Codes listed in `alsoRethrow` propagate too, for
 * the sites that must not swallow a cancellation ('cancelled') or treat a cap or a missing
 * feature ('limit', 'unsupported') as damage.
 */
export function rethrowUnlessFormatError(e: unknown, ...alsoRethrow: readonly FormatErrorCode[]): asserts e is FormatError {
  if (!(e instanceof FormatError) || alsoRethrow.includes(e.code)) throw e;
}

/** Throws the cancellation error when the signal has fired; long loops call this between slices. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new FormatError('cancelled', 'cancelled by the user');
}

/** A readable one-liner for any thrown value; non-FormatErrors are bugs and say so. */
export function describeError(e: unknown): string {
  if (e instanceof FormatError) return e.message;
  if (e instanceof Error) return `internal error: ${e.message}`;
  return `internal error: ${String(e)}`;
}
