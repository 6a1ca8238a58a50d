import { SHOW_DAMAGED } from '../../integrity.js';
import type { OptionValues, Row, RowCount, Table, TaskContext } from '../../model.js';
import type { FstChecksum } from './checksum.js';
import { crcFailure, markDamaged } from './damagedView.js';
import type { KeysTable } from './keysTable.js';

/**
 * The keys table as the viewer gets it: no page leaves before the file's CRC is known (one pass
 * per document, shared with verify, cat, converters and the background count, which starts it),
 * and a failed CRC shows every cell as damaged unless the show-anyway option is on.
 */
export class CheckedKeysTable implements Table {
  readonly id: string;
  readonly title: string;
  readonly columns: Table['columns'];
  readonly countIndexes = true;
  readonly params = [SHOW_DAMAGED];

  constructor(
    private readonly keys: KeysTable,
    private readonly checksum: FstChecksum,
    private readonly showDamaged = false,
  ) {
    this.id = showDamaged ? `${keys.id}?${SHOW_DAMAGED.key}` : keys.id;
    this.title = keys.title;
    this.columns = keys.columns;
  }

  rowCount(): RowCount {
    return this.keys.rowCount();
  }

  async count(ctx: TaskContext): Promise<number> {
    await this.checksum.check(ctx);
    return this.keys.count(ctx);
  }

  async page(from: number, count: number, signal?: AbortSignal): Promise<readonly Row[]> {
    const crc = await this.checksum.check({ signal });
    return markDamaged(await this.keys.page(from, count, signal), crcFailure(crc), this.showDamaged);
  }

  async withParams(values: OptionValues): Promise<Table> {
    return new CheckedKeysTable(this.keys, this.checksum, values[SHOW_DAMAGED.key] === true);
  }
}
