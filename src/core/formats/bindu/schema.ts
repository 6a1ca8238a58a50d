import { encodeLeb128, readLeb128 } from '../../codecs/leb128.js';
import { FormatError } from '../../errors.js';
import { BinReader } from '../../io/binReader.js';
import { decodeUtf8 } from './values.js';
import { TS_UNITS, type LeafColumn, type LeafType, type Schema, type SchemaField, type TypeDesc } from './model.js';

/** Canonical schema bytes (spec C.4) and the type descriptors Column frames repeat. */

/** NESTED types nest at most this deep (a reader's recursion limit; the importer keeps to it). */
export const MAX_DEPTH = 32;
const MAX_FIELDS = 1 << 16;

export function readStr(r: BinReader, field: string): string {
  const at = r.offset;
  const n = readLeb128(r, `${field} length`, { minimal: true });
  if (n > r.remaining) throw new FormatError('truncated', `${field} of ${n} bytes, ${r.remaining} remain`, { offset: at, field });
  return decodeUtf8(r.bytesOf(n, field), { offset: at, field });
}

export function readLbytes(r: BinReader, field: string): Uint8Array {
  const at = r.offset;
  const n = readLeb128(r, `${field} length`, { minimal: true });
  if (n > r.remaining) throw new FormatError('truncated', `${field} of ${n} bytes, ${r.remaining} remain`, { offset: at, field });
  return r.bytesOf(n, field);
}

/** A count read from the file, checked against what could possibly follow it. */
export function readCount(r: BinReader, field: string, minBytesEach: number, cap = Number.MAX_SAFE_INTEGER): number {
  const at = r.offset;
  const n = readLeb128(r, field, { minimal: true });
  if (n > cap || n * minBytesEach > r.remaining)
    throw new FormatError('corrupt', `${field} ${n} cannot fit in the ${r.remaining} bytes that remain`, { offset: at, field });
  return n;
}

export function readTypeDesc(r: BinReader, depth = 0): TypeDesc {
  const at = r.offset;
  const code = r.u8('type code');
  switch (code) {
    case 0x01: {
      const bits = r.u8('INT bits');
      const signed = r.u8('INT signed');
      if (![8, 16, 32, 64].includes(bits) || signed > 1)
        throw new FormatError('corrupt', `INT(${bits}, signed ${signed}) is not a valid integer type`, { offset: at, field: 'type' });
      return { code: 'INT', bits: bits as 8 | 16 | 32 | 64, signed: signed === 1 };
    }
    case 0x02: {
      const bits = r.u8('FLOAT bits');
      if (bits !== 32 && bits !== 64) throw new FormatError('corrupt', `FLOAT${bits} is not 32 or 64 bits`, { offset: at, field: 'type' });
      return { code: 'FLOAT', bits };
    }
    case 0x03: {
      const n = readCount(r, 'ENUM label count', 1, MAX_FIELDS);
      const labels: string[] = [];
      for (let i = 0; i < n; i++) labels.push(readStr(r, 'ENUM label'));
      return { code: 'ENUM', labels };
    }
    case 0x04: {
      const unit = r.u8('TS unit');
      if (unit >= TS_UNITS.length) throw new FormatError('corrupt', `TS unit ${unit} is not 0..3`, { offset: at + 1, field: 'TS unit' });
      return { code: 'TS', unit: TS_UNITS[unit]! };
    }
    case 0x05:
      return { code: 'STRING' };
    case 0x06:
      return { code: 'BYTES' };
    case 0x07: {
      if (depth >= MAX_DEPTH) throw new FormatError('limit', `NESTED deeper than ${MAX_DEPTH}`, { offset: at, field: 'type' });
      const n = readCount(r, 'NESTED child count', 3, MAX_FIELDS);
      const children: SchemaField[] = [];
      for (let i = 0; i < n; i++) children.push(readField(r, depth + 1));
      return { code: 'NESTED', children };
    }
    default:
      throw new FormatError('corrupt', `unknown type code 0x${code.toString(16).padStart(2, '0')}`, { offset: at, field: 'type code' });
  }
}

function readField(r: BinReader, depth: number): SchemaField {
  const name = readStr(r, 'field name');
  const flagsAt = r.offset;
  const flags = r.u8('field flags');
  if (flags & ~1)
    throw new FormatError('corrupt', `field "${name}": flags ${flags} use reserved bits (repeated is reserved)`, { offset: flagsAt, field: 'field flags' });
  return { name, nullable: (flags & 1) === 1, type: readTypeDesc(r, depth) };
}

/** Parses CSB: `"BSCH" u8 1 varint field_count field*`, with nothing after it. */
export function parseSchema(bytes: Uint8Array, base: number): Schema {
  const r = new BinReader(bytes, base);
  if (new TextDecoder().decode(r.bytesOf(4, 'schema magic')) !== 'BSCH')
    throw new FormatError('corrupt', 'schema does not start with "BSCH"', { offset: base, field: 'schema magic' });
  const version = r.u8('csb version');
  if (version !== 1) throw new FormatError('unsupported-version', `canonical schema version ${version}`, { offset: base + 4, field: 'csb version' });
  const n = readCount(r, 'field count', 3, MAX_FIELDS);
  const fields: SchemaField[] = [];
  for (let i = 0; i < n; i++) fields.push(readField(r, 0));
  if (r.remaining) throw new FormatError('corrupt', `${r.remaining} bytes after the last field`, { offset: r.offset, field: 'schema' });
  checkUnique(fields, base);
  return { fields, leaves: leavesOf(fields) };
}

function checkUnique(fields: readonly SchemaField[], base: number): void {
  const seen = new Set<string>();
  for (const f of fields) {
    if (seen.has(f.name)) throw new FormatError('corrupt', `field name "${f.name}" repeats among its siblings`, { offset: base, field: 'schema' });
    seen.add(f.name);
    if (f.type.code === 'NESTED') checkUnique(f.type.children, base);
  }
}

/** Leaves in depth-first pre-order: their index is the column id (spec C.4). */
export function leavesOf(fields: readonly SchemaField[], prefix = '', out: LeafColumn[] = []): LeafColumn[] {
  for (const f of fields) {
    const name = prefix ? `${prefix}.${f.name}` : f.name;
    if (f.type.code === 'NESTED') leavesOf(f.type.children, name, out);
    else out.push({ id: out.length, name, nullable: f.nullable, type: f.type });
  }
  return out;
}

export function typeText(t: TypeDesc): string {
  switch (t.code) {
    case 'INT':
      return `${t.signed ? 'INT' : 'UINT'}${t.bits}`;
    case 'FLOAT':
      return `FLOAT${t.bits}`;
    case 'ENUM':
      return t.labels.length ? `ENUM(${t.labels.join(', ')})` : 'ENUM (open)';
    case 'TS':
      return `TS(${t.unit})`;
    case 'NESTED':
      return `NESTED(${t.children.length})`;
    default:
      return t.code;
  }
}

// ------------------------------------------------------------------------ writing

const utf8 = new TextEncoder();

export function strBytes(s: string): number[] {
  const b = utf8.encode(s);
  return [...encodeLeb128(b.length), ...b];
}

export function typeDescBytes(t: TypeDesc): number[] {
  switch (t.code) {
    case 'INT':
      return [0x01, t.bits, t.signed ? 1 : 0];
    case 'FLOAT':
      return [0x02, t.bits];
    case 'ENUM':
      return [0x03, ...encodeLeb128(t.labels.length), ...t.labels.flatMap(strBytes)];
    case 'TS':
      return [0x04, TS_UNITS.indexOf(t.unit)];
    case 'STRING':
      return [0x05];
    case 'BYTES':
      return [0x06];
    case 'NESTED':
      return [0x07, ...encodeLeb128(t.children.length), ...t.children.flatMap(fieldBytes)];
  }
}

function fieldBytes(f: SchemaField): number[] {
  return [...strBytes(f.name), f.nullable ? 1 : 0, ...typeDescBytes(f.type)];
}

export function schemaBytes(fields: readonly SchemaField[]): Uint8Array {
  return Uint8Array.from([...utf8.encode('BSCH'), 1, ...encodeLeb128(fields.length), ...fields.flatMap(fieldBytes)]);
}

export type { LeafType };
