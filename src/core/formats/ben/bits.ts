import { FormatError } from '../../errors.js';
import { MAX_NODES, type RunBuffer } from './plan.js';

/**
 * MSB-first bit fields (spec §3): the first bit of a payload is bit 7 of its first byte. Fields
 * are at most 16 bits, so a 24-bit accumulator holds everything with integer arithmetic.
 */
export class BitReader {
  private acc = 0;
  private bits = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private pos: number,
    private readonly end: number,
  ) {}

  /** Bits not yet read. */
  get left(): number {
    return (this.end - this.pos) * 8 + this.bits;
  }

  read(n: number): number {
    while (this.bits < n) {
      this.acc = ((this.acc << 8) | this.bytes[this.pos++]!) & 0xffffff;
      this.bits += 8;
    }
    this.bits -= n;
    return (this.acc >>> this.bits) & ((1 << n) - 1);
  }
}

export class BitWriter {
  private acc = 0;
  private bits = 0;
  pos: number;

  constructor(
    readonly bytes: Uint8Array,
    start: number,
  ) {
    this.pos = start;
  }

  write(value: number, n: number): void {
    this.acc = ((this.acc << n) | value) >>> 0;
    this.bits += n;
    while (this.bits >= 8) {
      this.bits -= 8;
      this.bytes[this.pos++] = (this.acc >>> this.bits) & 0xff;
    }
    this.acc &= (1 << this.bits) - 1;
  }

  /** Zero-fills the last partial byte; returns the end position. */
  flush(): number {
    if (this.bits > 0) this.bytes[this.pos++] = (this.acc << (8 - this.bits)) & 0xff;
    this.acc = 0;
    this.bits = 0;
    return this.pos;
  }
}

/**
 * Reads the (value, length) runs of a Standard/MkvChain payload or TwoDelta snapshot into `out`.
 * Zero-length runs are the zero padding of the last byte (the reference reads
 * floor(8·n_bytes / (vbits + lbits)) runs and so meets them); one before a real run, or a
 * payload longer than its runs need, is corruption (spec §4, "zero-length runs").
 */
export function readValueRuns(bytes: Uint8Array, pos: number, nBytes: number, vbits: number, lbits: number, out: RunBuffer, at: number, field: string): void {
  out.clear();
  const width = vbits + lbits;
  const slots = Math.floor((nBytes * 8) / width);
  out.reserve(Math.min(slots, nBytes * 8));
  const r = new BitReader(bytes, pos, pos + nBytes);
  let real = 0;
  let padding = false;
  for (let i = 0; i < slots; i++) {
    const value = r.read(vbits);
    const length = r.read(lbits);
    if (length === 0) {
      padding = true;
      continue;
    }
    if (padding) throw new FormatError('corrupt', `run ${i} follows a zero-length run (zero runs are only padding at the end)`, { offset: at, field });
    out.values[real] = value;
    out.lengths[real] = length;
    real++;
    out.nodes += length;
    if (out.nodes > MAX_NODES) throw new FormatError('limit', `a plan of more than ${MAX_NODES} nodes`, { offset: at, field });
  }
  out.runs = real;
  const needed = Math.ceil((real * width) / 8);
  if (nBytes !== needed) throw new FormatError('corrupt', `payload of ${nBytes} bytes holds ${real} runs that need ${needed}`, { offset: at, field });
}

/** Packs runs as (value, length) fields; returns the end position. */
export function writeValueRuns(
  plan: { values: Uint16Array; lengths: Uint16Array; runs: number },
  vbits: number,
  lbits: number,
  out: Uint8Array,
  pos: number,
): number {
  const w = new BitWriter(out, pos);
  for (let i = 0; i < plan.runs; i++) {
    w.write(plan.values[i]!, vbits);
    w.write(plan.lengths[i]!, lbits);
  }
  return w.flush();
}
