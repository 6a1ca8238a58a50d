import { lazyHandler } from '../../handlerSpec.js';
import type { Probe, SniffVerdict } from '../../model.js';
import { hasMagic } from './model.js';

/** Only the "BINDU\0" magic: the official CLI's other wire formats (.sbp) are not open-v1. */
function sniff(p: Probe): SniffVerdict {
  return hasMagic(p.head) ? 'yes' : 'no';
}

export const binduHandler = lazyHandler(
  {
    id: 'bindu',
    label: 'Bindu open container v1',
    extensions: ['.bindu'],
    sniff,
    importers: async () => {
      const { bytesImporter, csvImporter, jsonlImporter } = await import('./importers.js');
      return [csvImporter, jsonlImporter, bytesImporter];
    },
  },
  async () => (await import('./document.js')).openBindu,
);
