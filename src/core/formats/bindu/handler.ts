import type { FormatHandler, Probe, SniffVerdict } from '../../model.js';
import { hasMagic } from './model.js';

/** Only the "BINDU\0" magic: the official CLI's other wire formats (.sbp) are not open-v1. */
function sniff(p: Probe): SniffVerdict {
  return hasMagic(p.head) ? 'yes' : 'no';
}

export const binduHandler = {
  id: 'bindu' as const,
  label: 'Bindu open container v1',
  extensions: ['.bindu'],
  sniff,
  // The document code (and its WebAssembly) loads on open, for the file at hand only.
  open: async (src, ctx) => (await import('./document.js')).openBindu(src, ctx),
  importers: async () => {
    const { bytesImporter, csvImporter, jsonlImporter } = await import('./importers.js');
    return [csvImporter, jsonlImporter, bytesImporter];
  },
} satisfies FormatHandler;
