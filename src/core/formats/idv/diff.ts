/** IDV diff: columns by name (as `cat` names them), then rows by position or by a key column (ops/diffKit.ts). */
import { FormatError } from '../../errors.js';
import type { Difference, DiffOptions, DiffSpec, DiffSummary, FormatDocument, TaskContext } from '../../model.js';
import { DiffSideError, diffTables, type SchemaColumn } from '../../ops/diffKit.js';
import type { IdvColumn } from './blocks.js';
import { typeText } from './columnType.js';

export class IdvDiff implements DiffSpec {
  readonly keyed = true;
  private readonly schema: readonly SchemaColumn[];

  constructor(
    private readonly doc: FormatDocument,
    columns: readonly IdvColumn[],
  ) {
    // A hidden column (its name repeats later) is `name#index`, the key `cat` prints it under.
    this.schema = columns.map((c) => ({ name: c.shadowed ? `${c.entry.name}#${c.entry.index}` : c.entry.name, type: typeText(c.type, c.entry.codec) }));
  }

  run(other: FormatDocument, ctx: TaskContext, options?: DiffOptions): AsyncGenerator<Difference, DiffSummary> {
    const theirs = other.diff;
    if (!(theirs instanceof IdvDiff)) throw new DiffSideError('B', new FormatError('unsupported', 'not an IDV file'));
    return diffTables({ doc: this.doc, schema: this.schema }, { doc: other, schema: theirs.schema }, ctx, undefined, options);
  }
}
