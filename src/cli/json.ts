/** JSON for machines: bigints as decimal strings (u64 values do not fit JS numbers), Uint8Arrays as hex. */
export function toJson(value: unknown, indent?: number): string {
  return JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v === 'bigint') return v.toString();
      if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
      return v;
    },
    indent,
  );
}
