import { lookup } from '../../lookup.js';
import { isXzMagic } from '../../codecs/xz/magic.js';
import type { FormatHandler, Probe, SniffVerdict } from '../../model.js';
import { isBendlMagic } from './bendlMagic.js';
import { BANNER_BYTES, BANNERS } from './model.js';

const latin1 = new TextDecoder('latin1');

/** A bundle magic or a stream banner decides; an .xz file could hold anything, so it is a 'maybe'. */
function sniff(p: Probe): SniffVerdict {
  if (isBendlMagic(p.head)) return 'yes';
  if (p.head.length >= BANNER_BYTES && lookup(BANNERS, latin1.decode(p.head.subarray(0, BANNER_BYTES)))) return 'yes';
  if (isXzMagic(p.head)) return 'maybe';
  return 'no';
}

export const benHandler = {
  id: 'ben' as const,
  label: 'binary-ensemble (BEN, XBEN, BENDL)',
  extensions: ['.ben', '.xben', '.bendl'],
  sniff,
  // The document code (and its WebAssembly) loads on open, for the file at hand only.
  open: async (src, ctx) => (await import('./document.js')).openBen(src, ctx),
  importers: async () => {
    const [{ jsonlImporters }, { jsonlSamples }] = await Promise.all([import('./converters.js'), import('./pipeline.js')]);
    return jsonlImporters(jsonlSamples);
  },
} satisfies FormatHandler;
