/** IDV diff: columns by name (as `cat` names them), then rows by position or by a key column (ops/diffKit.ts). */
import type { FormatDocument } from '../../model.js';
import { TableDiff } from '../../ops/diffKit.js';
import type { IdvColumn } from './blocks.js';
import { typeText } from './columnType.js';

export class IdvDiff extends TableDiff {
  constructor(doc: FormatDocument, columns: readonly IdvColumn[]) {
    // A hidden column (its name repeats later) is `name#index`, the key `cat` prints it under.
    super(
      'an IDV file',
      doc,
      columns.map((c) => ({ name: c.shadowed ? `${c.entry.name}#${c.entry.index}` : c.entry.name, type: typeText(c.type, c.entry.codec) })),
    );
  }
}
