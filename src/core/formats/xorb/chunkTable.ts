import { range } from '../../describe.js';
import { damagedCell, SHOW_DAMAGED } from '../../integrity.js';
import type { Cell, OptionValues, Row, Table } from '../../model.js';
import { column, listTable } from '../../tableSpec.js';
import { ratio, schemeName } from './chunks.js';
import type { ChunkOutcome } from './decode.js';
import { hashToString, sameHash } from './hash.js';
import { knownChunkDamage } from './integrity.js';
import { CHUNK_HEADER_BYTES } from './model.js';
import type { XorbFile } from './xorbFile.js';

/** The hash cell of an intact chunk: computed, or the footer's until the chunks are hashed. */
function hashCell(outcome: ChunkOutcome | undefined, stored: Uint8Array | undefined): Cell {
  if (!outcome) return stored ? { text: hashToString(stored), title: 'from the footer (not recomputed yet)' } : null;
  if (outcome.error) return { text: 'not decodable', title: outcome.error.message, mark: 'error' };
  const text = hashToString(outcome.hash);
  if (stored && !sameHash(stored, outcome.hash)) return { text, title: `the footer says ${hashToString(stored)}`, mark: 'error' };
  return text;
}

/**
 * One row per chunk. A damaged chunk (it does not decode, or hashes to another hash than the
 * footer's) keeps its index and offset, so it can be found, but its header values and hash show
 * as damaged; SHOW_DAMAGED shows them anyway, labelled.
 */
export function chunkTable(x: XorbFile, showDamaged = false): Table {
  return listTable({
    id: showDamaged ? `chunks?${SHOW_DAMAGED.key}` : 'chunks',
    title: 'Chunks',
    columns: [
      column('index', 'number', '#'),
      column('offset', 'number'),
      column('scheme', 'text'),
      column('compressed', 'number'),
      column('uncompressed', 'number'),
      column('ratio', 'number', 'ratio', 'uncompressed / compressed'),
      column('hash', 'hex', 'chunk hash', "keyed BLAKE3 of the decoded bytes, in xet's string form"),
    ],
    params: [SHOW_DAMAGED],
    withParams: (values: OptionValues) => Promise.resolve(chunkTable(x, values[SHOW_DAMAGED.key] === true)),
    items: x.chunks,
    row: (c, i): Row => {
      const hash = hashCell(x.known?.chunks[i], x.footer?.chunkHashes[i]);
      const values: Cell[] = [schemeName(c.scheme), c.compressedLength, c.uncompressedLength, ratio(c), hash];
      const damage = knownChunkDamage(x, i);
      const detail = damage && `${damage.unit}: ${damage.detail}`;
      const shown =
        detail === undefined ? values : values.map((v) => damagedCell(detail, showDamaged ? (v !== null && typeof v === 'object' ? v.text : v) : undefined));
      return { cells: [i, c.offset, ...shown], range: range(c.offset, CHUNK_HEADER_BYTES + c.compressedLength), mark: damage ? 'error' : undefined };
    },
  });
}
