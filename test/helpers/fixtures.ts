import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { MemorySource } from '../../src/core/io/byteSource.js';
import type { FormatDocument, FormatHandler } from '../../src/core/model.js';
import { openDocument } from '../../src/core/open.js';
import { handlers } from '../../src/core/registry.js';

/** The shared golden files, read where CI puts them: `../shared/fixtures` beside the repository. */
export const FIXTURES = resolve(__dirname, '../../../shared/fixtures');

export function fixture(path: string): string {
  return join(FIXTURES, path);
}

export function readFixture(path: string): Uint8Array {
  return new Uint8Array(readFileSync(fixture(path)));
}

export function readJson<T = any>(path: string): T {
  return JSON.parse(readFileSync(fixture(path), 'utf8')) as T;
}

/** Every file under a fixture folder whose name ends with one of `extensions`, as paths relative to FIXTURES. */
export function listFixtures(folder: string, extensions: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (extensions.some((e) => name.endsWith(e))) out.push(relative(FIXTURES, p));
    }
  };
  walk(fixture(folder));
  return out;
}

/** Opens a fixture through the registry, as the CLI and the editor do. */
export async function openFixture(path: string): Promise<FormatDocument> {
  const outcome = await openDocument(new MemorySource(readFixture(path)), { name: path.split('/').pop() });
  if (outcome.kind !== 'opened') throw new Error(`${path}: ${outcome.reason}`);
  return outcome.doc;
}

/** Parses a TSV file with a header row into records. */
export function readTsv(path: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(fixture(path), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  const keys = head!.split('\t');
  return lines.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [keys[i]!, v])));
}

/** Damaged files: fst/corrupt, ben/negative and xorb 9x (each folder's MANIFEST lists them). */
export function isNegative(path: string): boolean {
  return /\/(corrupt|negative)\//.test(path) || /^xorb\/9\d_/.test(path);
}

/**
 * Every fixture of every family with the family it belongs to: a family's fixtures are the files
 * under `<id>/` ending with its handler's extensions. A family without a folder has none, so
 * families.test.ts names it instead of this throwing.
 */
export function allFixtures(list: readonly FormatHandler[] = handlers): { path: string; family: string; negative: boolean }[] {
  return list
    .filter((h) => existsSync(fixture(h.id)))
    .flatMap((h) => listFixtures(h.id, h.extensions).map((path) => ({ path, family: h.id, negative: isNegative(path) })));
}
