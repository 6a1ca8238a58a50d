import type { FormatHandler, Probe, SniffVerdict } from '../../model.js';
import { openIdv } from './document.js';
import { importers } from './importer.js';
import { SIGNATURE } from './model.js';

/** The 8-byte signature decides: TeX's .idv files (tex4ht) never start with it. */
function sniff(p: Probe): SniffVerdict {
  return p.head.length >= 8 && SIGNATURE.every((b, i) => p.head[i] === b) ? 'yes' : 'no';
}

export const idvHandler: FormatHandler = {
  id: 'idv',
  label: 'ML.NET binary dataview',
  extensions: ['.idv'],
  sniff,
  open: openIdv,
  importers,
};
