import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handlers } from '../../src/core/registry.js';
import { binlens } from '../helpers/cli.js';

/**
 * Every list of families outside the registry must agree with its handlers, so that adding a
 * format is its folder and one registry line; this test names the list that was forgotten.
 */
const manifest = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')) as {
  contributes: { customEditors: { viewType: string; selector: { filenamePattern: string }[] }[]; menus: Record<string, { when?: string }[]> };
};
const extensions = handlers.flatMap((h) => h.extensions).sort();

/** The extensions named by a `resourceExtname =~ /^\.(a|b|c)$/i` clause. */
function extensionsInWhen(when: string): string[] | undefined {
  const m = /resourceExtname =~ \/\^\\\.\(([^)]*)\)\$\/i/.exec(when);
  return m?.[1]!.split('|').map((e) => `.${e}`).sort();
}

describe('family lists agree with the registry', () => {
  it('the viewer opens every extension the handlers claim, and no other', () => {
    const viewer = manifest.contributes.customEditors.find((e) => e.viewType === 'binlens.viewer')!;
    expect(viewer.selector.map((s) => s.filenamePattern.replace(/^\*/, '')).sort()).toEqual(extensions);
  });

  it('every menu clause that lists extensions lists the handlers’ extensions', () => {
    const clauses = Object.values(manifest.contributes.menus)
      .flat()
      .map((m) => m.when ?? '')
      .filter((w) => w.includes('resourceExtname'));
    expect(clauses.length).toBeGreaterThan(0);
    for (const w of clauses) expect(extensionsInWhen(w), w).toEqual(extensions);
  });

  it('the CLI usage names every extension and format id', async () => {
    const { stdout, code } = await binlens('--help');
    expect(code).toBe(0);
    for (const e of extensions) expect(stdout).toContain(e);
    expect(stdout).toContain(`--as FORMAT   read the file as this format (${handlers.map((h) => h.id).join(', ')})`);
  });

  it('every family has a positive fixture', async () => {
    const { allFixtures } = await import('../helpers/fixtures.js');
    const families = new Set(allFixtures().filter((f) => !f.negative).map((f) => f.family));
    expect(families).toEqual(new Set(handlers.map((h) => h.id)));
  });
});
