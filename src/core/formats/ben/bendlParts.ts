import type { XzLayout } from '../../codecs/xz/container.js';
import { hex } from '../../describe.js';
import type { FormatError } from '../../errors.js';
import type { Damage } from '../../integrity.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { TaskContext } from '../../model.js';
import { ASSET_FLAG_CHECKSUM, ASSET_FLAG_JSON, ASSET_FLAG_XZ, type AssetEntry, type BendlHeader, type Directory, type HeaderTail } from './bendl.js';
import type { PlanFeatures } from './features.js';
import type { BenStreamView } from './streamView.js';

/** What a bundle's layout is, from its header tail and offsets (spec §6 "older layout"). */
export type Layout = 'newest' | 'older' | 'corrupt';

/** What opening a bundle found: read once, then shown by the tree, the panels, verify and the conversions. */
export interface BundleParts {
  readonly src: ByteSource;
  readonly header: BendlHeader;
  readonly tail: HeaderTail;
  readonly layout: Layout;
  readonly problems: readonly FormatError[];
  readonly directory: Directory | undefined;
  readonly directoryError: FormatError | undefined;
  readonly stream: { readonly offset: number; readonly length: number; readonly provisional: boolean };
  readonly benStream: BenStreamView | undefined;
  readonly xzStream: XzLayout | undefined;
  readonly streamError: FormatError | undefined;
}

/**
 * The open bundle as its views see it (bendlTree, bendlPanels, bendlVerify, bendlConverters): the
 * parts, plus the checks computed once per document and shared by every view.
 */
export interface Bundle extends BundleParts {
  readonly title: string;
  readonly plans: PlanFeatures | undefined;
  /** The header's sample count when the header is trustworthy and the bundle finalized. */
  trustedCount(): number | undefined;
  /** Why the header tail fails, in words. */
  tailDetail(): string;
  /** An asset's content, read once (CRC checked, decompressed). */
  asset(name: string): Promise<Uint8Array | undefined>;
  assetCrc(e: AssetEntry, signal?: AbortSignal): Promise<number>;
  /** An asset's CRC32C once computed, for the tree, which cannot wait for it. */
  knownAssetCrc(name: string): number | undefined;
  streamCrc(ctx: TaskContext): Promise<number>;
  /** The stream's CRC32C once computed, for the tree. */
  knownStreamCrc(): number | undefined;
  streamDamage(ctx: TaskContext): Promise<Damage | undefined>;
  /** Reports the header's damage before anything read through it leaves, once per run. */
  checkHeader(ctx: TaskContext): void;
}

export const ASSET_TYPES: Record<number, string> = { 1: 'metadata', 2: 'graph', 3: 'node permutation map', 4: 'custom' };

/** What the tree says of a CRC32C once computed: nothing while unknown or matching. */
export function crcFailure(stored: number | undefined, computed: number | undefined): string | undefined {
  return stored === undefined || computed === undefined || computed === stored
    ? undefined
    : `CRC32C fails: stored ${hex(stored, 8)}, computed ${hex(computed, 8)}`;
}

export function assetFlags(flags: number): string {
  const names = [flags & ASSET_FLAG_JSON ? 'json' : '', flags & ASSET_FLAG_XZ ? 'xz' : '', flags & ASSET_FLAG_CHECKSUM ? 'crc' : ''].filter(Boolean);
  const unknown = flags & ~7;
  return `${flags} (${names.join('|') || 'none'}${unknown ? `, unknown bits ${hex(unknown)}` : ''})`;
}
