import { lazyHandler } from '../../handlerSpec.js';
import type { Probe, SniffVerdict } from '../../model.js';
import { SIGNATURE } from './model.js';

/** The 8-byte signature decides: TeX's .idv files (tex4ht) never start with it. */
function sniff(p: Probe): SniffVerdict {
  return p.head.length >= 8 && SIGNATURE.every((b, i) => p.head[i] === b) ? 'yes' : 'no';
}

export const idvHandler = lazyHandler(
  {
    id: 'idv',
    label: 'ML.NET binary dataview',
    extensions: ['.idv'],
    sniff,
    importers: async () => (await import('./importer.js')).importers,
  },
  async () => (await import('./document.js')).openIdv,
);
