import { FormatError } from '../../errors.js';

/**
 * An RFC 4180 CSV reader fed in pieces (any line ending, a leading BOM dropped) that keeps one
 * distinction the measured libraries drop: an unquoted empty field is `null`, a quoted `""` is
 * the empty string. Binlens writes nulls and empty strings that way, so both survive a round
 * trip through CSV (DESIGN.md, "Bindu").
 */
export type CsvRow = (string | null)[];

export class CsvReader {
  private field = '';
  private row: CsvRow = [];
  private quoted = false;
  /** Inside quotes; `quoteSeen` is a quote that may be the first of an escaped pair or the closing one. */
  private inQuotes = false;
  private quoteSeen = false;
  private fieldStarted = false;
  private first = true;
  private line = 1;
  private pendingCr = false;

  constructor(private readonly emit: (row: CsvRow, line: number) => void) {}

  push(text: string): void {
    let i = 0;
    if (this.first && text.length) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    for (; i < text.length; i++) {
      const ch = text[i]!;
      if (this.pendingCr) {
        this.pendingCr = false;
        if (ch === '\n') continue;
      }
      if (this.inQuotes) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (ch === '"') {
            this.field += '"';
            continue;
          }
          this.inQuotes = false;
        } else if (ch === '"') {
          this.quoteSeen = true;
          continue;
        } else {
          if (ch === '\n') this.line++;
          this.field += ch;
          continue;
        }
      }
      if (ch === ',') this.endField();
      else if (ch === '\n' || ch === '\r') {
        this.endRow();
        if (ch === '\r') this.pendingCr = true;
      } else if (ch === '"' && !this.fieldStarted) {
        this.inQuotes = true;
        this.quoted = true;
        this.fieldStarted = true;
      } else if (ch === '"' || this.quoted) {
        throw new FormatError('corrupt', this.quoted ? 'text after a closing quote' : 'a quote inside an unquoted field', { field: `CSV line ${this.line}` });
      } else {
        this.field += ch;
        this.fieldStarted = true;
      }
    }
  }

  end(): void {
    if (this.inQuotes && !this.quoteSeen) throw new FormatError('truncated', 'the file ends inside a quoted field', { field: `CSV line ${this.line}` });
    this.quoteSeen = false;
    this.inQuotes = false;
    // A final line break ends the last row; it does not start an empty one.
    if (this.fieldStarted || this.row.length) this.endRow();
  }

  private endField(): void {
    this.row.push(this.quoted || this.field !== '' ? this.field : null);
    this.field = '';
    this.quoted = false;
    this.fieldStarted = false;
  }

  private endRow(): void {
    this.endField();
    const row = this.row;
    this.row = [];
    this.emit(row, this.line++);
  }
}
