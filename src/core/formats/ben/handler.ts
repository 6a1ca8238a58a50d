import { lookup } from '../../lookup.js';
import { isXzMagic } from '../../codecs/xz/magic.js';
import { lazyHandler } from '../../handlerSpec.js';
import type { Probe, SniffVerdict } from '../../model.js';
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

export const benHandler = lazyHandler(
  {
    id: 'ben',
    label: 'binary-ensemble (BEN, XBEN, BENDL)',
    extensions: ['.ben', '.xben', '.bendl'],
    sniff,
    importers: async () => {
      const [{ jsonlImporters }, { jsonlSamples }] = await Promise.all([import('./converters.js'), import('./pipeline.js')]);
      return jsonlImporters(jsonlSamples);
    },
  },
  async () => (await import('./document.js')).openBen,
);
