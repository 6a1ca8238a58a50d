import type { FormatHandler, Probe, SniffVerdict } from '../../model.js';
import { openBindu } from './document.js';
import { hasMagic } from './frames.js';
import { bytesImporter, csvImporter, jsonlImporter } from './importers.js';

/** Only the "BINDU\0" magic: the official CLI's other wire formats (.sbp) are not open-v1. */
function sniff(p: Probe): SniffVerdict {
  return hasMagic(p.head) ? 'yes' : 'no';
}

export const binduHandler: FormatHandler = {
  id: 'bindu',
  label: 'Bindu open container v1',
  extensions: ['.bindu'],
  sniff,
  open: openBindu,
  importers: [csvImporter, jsonlImporter, bytesImporter],
};
