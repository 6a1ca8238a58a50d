/** Bindu diff: columns by name (type and nullability), then rows by position (ops/diffKit.ts). */
import { FormatError } from '../../errors.js';
import type { Difference, DiffSpec, DiffSummary, FormatDocument, TaskContext } from '../../model.js';
import { DiffSideError, diffTables, type SchemaColumn } from '../../ops/diffKit.js';
import type { ColumnFrame } from './model.js';

export class BinduDiff implements DiffSpec {
  private readonly schema: readonly SchemaColumn[];

  constructor(
    private readonly doc: FormatDocument,
    columns: readonly ColumnFrame[],
  ) {
    this.schema = columns.map((c) => ({ name: c.name, type: `${JSON.stringify(c.type)}${c.nullable ? ' nullable' : ''}` }));
  }

  run(other: FormatDocument, ctx: TaskContext): AsyncGenerator<Difference, DiffSummary> {
    const theirs = other.diff;
    if (!(theirs instanceof BinduDiff)) throw new DiffSideError('B', new FormatError('unsupported', 'not a bindu file'));
    return diffTables({ doc: this.doc, schema: this.schema }, { doc: other, schema: theirs.schema }, ctx);
  }
}
