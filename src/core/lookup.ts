/**
 * A name table's entry for a key that came from a file or a user. Plain indexing would also
 * find `Object.prototype`'s members: a text "toString" or a codec named "constructor" would
 * read as a function instead of as unknown.
 */
export function lookup<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
