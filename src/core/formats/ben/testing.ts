import { concatBytes } from '../../io/bytes.js';
import type { ByteSink } from '../../model.js';

/** A sink that keeps what it is given, for tests and small in-memory conversions. */
export class MemorySink implements ByteSink {
  readonly parts: Uint8Array[] = [];
  write(chunk: Uint8Array): Promise<void> {
    this.parts.push(chunk.slice());
    return Promise.resolve();
  }
  patch(offset: number, bytes: Uint8Array): Promise<void> {
    const all = this.bytes();
    all.set(bytes, offset);
    this.parts.splice(0, this.parts.length, all);
    return Promise.resolve();
  }
  bytes(): Uint8Array {
    return concatBytes(this.parts);
  }
  text(): string {
    return new TextDecoder().decode(this.bytes());
  }
}
