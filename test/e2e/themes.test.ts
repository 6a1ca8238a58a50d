import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe.js';
import { VsCodeSession } from './session.js';

/**
 * Every family's view in the four kinds of theme: a screenshot each, and axe-core (WCAG 2.1 AA,
 * colour contrast included) inside the real webview must find no serious violation.
 */
/** Labels in the theme picker and the class the workbench then carries. */
const THEMES = [
  ['Dark Modern', 'vs-dark'],
  ['Light Modern', 'vs'],
  ['Dark High Contrast', 'hc-black'],
  ['Light High Contrast', 'hc-light'],
] as const;
const FILES = [
  { family: 'fst', file: 'small.map.fst3.fst', from: 'fst/small.map.fst3.fst' },
  { family: 'ben', file: 'flags_set.bendl', from: 'ben/independent/flags_set.bendl' },
  { family: 'xorb', file: '02_lz4_text.xorb', from: 'xorb/02_lz4_text.xorb' },
  { family: 'idv', file: 'datatypes.idv', from: 'idv/mlnet-testdata/datatypes.idv' },
  { family: 'bindu', file: 'sample.bindu', from: 'bindu/sample.bindu' },
];

describe('themes and accessibility in VS Code', () => {
  let vs: VsCodeSession;

  beforeAll(async () => {
    vs = await VsCodeSession.start(FILES, {}, { bypassCSP: true });
  });

  afterAll(async () => {
    await vs?.stop();
  });

  it.each(THEMES)('%s: every family renders with WCAG AA contrast and no serious axe violation', async (theme, kind) => {
    await vs.colorTheme(theme, kind);
    const slug = theme.toLowerCase().replace(/ /g, '-');
    for (const f of FILES) {
      const view = await vs.open(f.file, f.family);
      await view.locator('[role="treeitem"][aria-level="2"]').first().waitFor({ timeout: 15_000 });
      await vs.shot(`theme-${slug}-${f.family}`);
      const violations = await seriousViolations(await vs.webviewFrame());
      expect(violations, `${theme}, ${f.file}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
    }
  });
});
