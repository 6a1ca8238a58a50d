import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FormatHandler } from '../../src/core/model.js';
import { allFixtures } from './fixtures.js';

/**
 * The lists of families kept outside the registry (package.json's by hand, the fixtures on disk),
 * each compared with a handler list: families.test.ts runs them on the registry's handlers,
 * addFormat.test.ts on the registry plus a throwaway format, to prove they notice a new one.
 */
const manifest = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')) as {
  contributes: { customEditors: { viewType: string; selector: { filenamePattern: string }[] }[]; menus: Record<string, { when?: string }[]> };
};

/** Every extension the handlers claim, sorted. */
export function claimedExtensions(list: readonly FormatHandler[]): string[] {
  return list.flatMap((h) => h.extensions).sort();
}

/** The extensions the custom editor `binlens.viewer` opens, sorted. */
export function viewerExtensions(): string[] {
  const viewer = manifest.contributes.customEditors.find((e) => e.viewType === 'binlens.viewer')!;
  return viewer.selector.map((s) => s.filenamePattern.replace(/^\*/, '')).sort();
}

/** Each menu `when` clause that names extensions, with the extensions its `resourceExtname =~ /^\.(a|b)$/i` lists. */
export function menuClauses(): { when: string; extensions: string[] | undefined }[] {
  return Object.values(manifest.contributes.menus)
    .flat()
    .map((m) => m.when ?? '')
    .filter((w) => w.includes('resourceExtname'))
    .map((when) => {
      const m = /resourceExtname =~ \/\^\\\.\(([^)]*)\)\$\/i/.exec(when);
      return {
        when,
        extensions: m?.[1]!
          .split('|')
          .map((e) => `.${e}`)
          .sort(),
      };
    });
}

/** The ids of the handlers with no positive fixture under ../shared/fixtures/<id>/. */
export function familiesWithoutFixtures(list: readonly FormatHandler[]): string[] {
  const found = new Set(
    allFixtures(list)
      .filter((f) => !f.negative)
      .map((f) => f.family),
  );
  return list.map((h) => h.id).filter((id) => !found.has(id));
}
