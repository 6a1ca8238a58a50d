import { lazyHandler } from '../../handlerSpec.js';
import type { Probe, SniffVerdict } from '../../model.js';
import { CHECKSUM_BYTES, FOOTER_BYTES, HEADER_BYTES, hasChecksum, isKnownVersion, minimumSize } from './header.js';

/**
 * FSTs have no magic: sniffing checks the version field and that the footer's root address
 * sits where every known producer puts it (spec fst.md §1). OpenFst's and R's `.fst` files fail
 * both checks.
 */
function sniff(p: Probe): SniffVerdict {
  if (p.head.length < HEADER_BYTES) return 'no';
  const head = new DataView(p.head.buffer, p.head.byteOffset, p.head.byteLength);
  const version = head.getBigUint64(0, true);
  if (!isKnownVersion(version) || p.size < minimumSize(version)) return 'no';
  const footerFromEnd = FOOTER_BYTES + (hasChecksum(version) ? CHECKSUM_BYTES : 0);
  const tail = new DataView(p.tail.buffer, p.tail.byteOffset, p.tail.byteLength);
  const root = tail.getBigUint64(p.tail.length - footerFromEnd + 8, true);
  const footerStart = BigInt(p.size - footerFromEnd);
  const consistent = root === footerStart - 1n || (root === 0n && footerStart === BigInt(HEADER_BYTES));
  return consistent ? 'yes' : 'maybe';
}

export const fstHandler = lazyHandler(
  {
    id: 'fst',
    label: 'Finite state transducer (fst crate, vellum)',
    extensions: ['.fst'],
    sniff,
    importers: async () => (await import('./importText.js')).fstImporters,
  },
  async () => (await import('./document.js')).openFst,
);
