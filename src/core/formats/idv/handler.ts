import type { FormatHandler, Probe, SniffVerdict } from '../../model.js';
import { SIGNATURE } from './model.js';

/** The 8-byte signature decides: TeX's .idv files (tex4ht) never start with it. */
function sniff(p: Probe): SniffVerdict {
  return p.head.length >= 8 && SIGNATURE.every((b, i) => p.head[i] === b) ? 'yes' : 'no';
}

export const idvHandler = {
  id: 'idv' as const,
  label: 'ML.NET binary dataview',
  extensions: ['.idv'],
  sniff,
  // The document code (and its WebAssembly) loads on open, for the file at hand only.
  open: async (src, ctx) => (await import('./document.js')).openIdv(src, ctx),
  importers: async () => (await import('./importer.js')).importers,
} satisfies FormatHandler;
