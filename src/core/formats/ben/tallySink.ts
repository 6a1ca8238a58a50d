import { crc32c } from '../../codecs/crc32c.js';
import type { ByteSink } from '../../model.js';

/** Passes writes on to the inner sink, counting their bytes and, where asked, their CRC32C (a .bendl's stream checksum). */
export class TallySink implements ByteSink {
  bytes = 0;
  crc = 0;

  constructor(
    private readonly inner: ByteSink,
    private readonly withCrc = false,
  ) {}

  get releasesChunk(): boolean | undefined {
    return this.inner.releasesChunk;
  }

  write(chunk: Uint8Array): Promise<void> {
    this.bytes += chunk.length;
    if (this.withCrc) this.crc = crc32c(chunk, this.crc);
    return this.inner.write(chunk);
  }
}
