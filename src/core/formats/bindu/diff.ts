/**
 * Bindu diff: columns by name (type and nullability), then the metadata (writer, header,
 * pipeline configuration, UserMeta entries) as the Metadata panel shows it, then rows by position
 * or by a key column (ops/diffKit.ts). A metadata frame that fails its CRC stops the diff, as damaged rows do.
 */
import { FormatError } from '../../errors.js';
import type { Difference, FormatDocument, TaskContext } from '../../model.js';
import { onSide, TableDiff, type DiffSide, type Tally } from '../../ops/diffKit.js';
import type { ColumnFrame } from './model.js';

export class BinduDiff extends TableDiff {
  constructor(doc: FormatDocument, columns: readonly ColumnFrame[]) {
    super(
      'a bindu file',
      doc,
      columns.map((c) => ({ name: c.name, type: `${JSON.stringify(c.type)}${c.nullable ? ' nullable' : ''}` })),
      (other, tally, ctx) => diffMetadata(doc, other, tally, ctx),
    );
  }
}

async function* diffMetadata(a: FormatDocument, b: FormatDocument, tally: Tally, ctx: TaskContext): AsyncGenerator<Difference> {
  const ma = await metadata('A', a, ctx);
  const mb = await metadata('B', b, ctx);
  for (const [key, va] of ma) {
    const vb = mb.get(key);
    if (vb === va) continue;
    const kind = vb === undefined ? 'meta-removed' : 'meta-changed';
    tally.add(kind);
    yield { kind, at: key, text: vb === undefined ? `removed (${va})` : `${va} → ${vb}`, data: { key, a: va, ...(vb === undefined ? {} : { b: vb }) } };
  }
  for (const [key, vb] of mb) {
    if (ma.has(key)) continue;
    tally.add('meta-added');
    yield { kind: 'meta-added', at: key, text: `added (${vb})`, data: { key, b: vb } };
  }
}

/** "group / name" → value, from the Metadata panel; a repeated name is numbered. */
async function metadata(side: DiffSide, doc: FormatDocument, ctx: TaskContext): Promise<Map<string, string>> {
  return onSide(side, async () => {
    const out = new Map<string, string>();
    const panel = doc.panels?.find((p) => p.id === 'metadata');
    const data = panel && (await panel.data({}, ctx.signal));
    if (!data || data.kind !== 'fields') return out;
    for (const g of data.groups) {
      for (const f of g.fields) {
        // The panel names a damaged frame instead of its values: trouble, not a difference.
        if (f.mark === 'error') throw new FormatError('checksum', `${f.name}: ${f.value}`, { offset: f.offset });
        let key = `${g.title} / ${f.name}`;
        for (let n = 2; out.has(key); n++) key = `${g.title} / ${f.name} #${n}`;
        out.set(key, f.value);
      }
    }
    return out;
  });
}
