import { lookup } from '../../lookup.js';
import { isXzMagic } from '../../codecs/xz/container.js';
import type { FormatHandler, Probe, SniffVerdict } from '../../model.js';
import { isBendlMagic } from './bendl.js';
import { jsonlImporters } from './converters.js';
import { openBen } from './document.js';
import { jsonlSamples } from './pipeline.js';
import { BANNER_BYTES, BANNERS } from './model.js';

const latin1 = new TextDecoder('latin1');

/** A bundle magic or a stream banner decides; an .xz file could hold anything, so it is a 'maybe'. */
function sniff(p: Probe): SniffVerdict {
  if (isBendlMagic(p.head)) return 'yes';
  if (p.head.length >= BANNER_BYTES && lookup(BANNERS, latin1.decode(p.head.subarray(0, BANNER_BYTES)))) return 'yes';
  if (isXzMagic(p.head)) return 'maybe';
  return 'no';
}

export const benHandler: FormatHandler = {
  id: 'ben',
  label: 'binary-ensemble (BEN, XBEN, BENDL)',
  extensions: ['.ben', '.xben', '.bendl'],
  sniff,
  open: openBen,
  importers: jsonlImporters(jsonlSamples),
};
