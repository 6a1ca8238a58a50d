import type { NativeCodecs } from '../../core/codecs/native.js';
import type { ByteSource } from '../../core/io/byteSource.js';
import type { FileHost } from '../../core/ops/import.js';
import type { IndexStore } from './indexStore.js';

/** What the engine needs from its platform: Node file access in a worker thread, workspace.fs bytes in a browser. */
export interface Platform extends FileHost {
  openBytes(bytes: ArrayBuffer): ByteSource;
  /** Native codecs the host lends to core (Node's zlib); absent = the portable ones only. */
  readonly codecs?: NativeCodecs;
  /** Lets the engine's thread end once `shutdown` has answered; absent where there is no thread of its own. */
  readonly endThread?: () => void;
  /** Indexes kept between opens of a local file (indexStore.ts); absent = every open walks again. */
  readonly indexes?: Pick<IndexStore, 'load' | 'save'>;
}
