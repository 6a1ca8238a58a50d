import type { NativeCodecs } from '../../core/codecs/native.js';
import type { ByteSource } from '../../core/io/byteSource.js';
import type { OutputTarget, ScratchSpace } from '../../core/model.js';
import type { IndexStore } from './indexStore.js';

/** What the engine needs from its platform: Node file access in a worker thread, workspace.fs bytes in a browser. */
export interface Platform {
  openPath(path: string): Promise<ByteSource>;
  openBytes(bytes: ArrayBuffer): ByteSource;
  writeOutput<T>(
    out: string,
    opts: { force: boolean; inputs: readonly string[]; kind: 'file' | 'folder' },
    run: (target: OutputTarget) => Promise<T>,
  ): Promise<T>;
  /** Temporary files for imports that sort more than fits in memory; absent = in memory only. */
  scratch?(): Promise<ScratchSpace & { dispose(): Promise<void> }>;
  /** Native codecs the host lends to core (Node's zlib); absent = the portable ones only. */
  readonly codecs?: NativeCodecs;
  /** Lets the engine's thread end once `shutdown` has answered; absent where there is no thread of its own. */
  readonly endThread?: () => void;
  /** Indexes kept between opens of a local file (indexStore.ts); absent = every open walks again. */
  readonly indexes?: Pick<IndexStore, 'load' | 'save'>;
}
