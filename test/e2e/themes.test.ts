import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe.js';
import { SHOTS, VsCodeSession } from './session.js';

/**
 * Every family's view in the four kinds of theme, walked tab by tab as a new user would (the
 * summary, each table, each panel, the search): a screenshot of each (docs/theme-checklist.md
 * says what was looked at in them), and axe-core (WCAG 2.1 AA, colour contrast included) inside
 * the real webview must find no serious violation on any of them.
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
    mkdirSync(join(SHOTS, 'theme-walk'), { recursive: true });
    vs = await VsCodeSession.start(FILES, {}, { bypassCSP: true });
  });

  afterAll(async () => {
    await vs?.stop();
  });

  it.each(THEMES)('%s: every tab of every family renders with WCAG AA contrast and no serious axe violation', async (theme, kind) => {
    await vs.colorTheme(theme, kind);
    const slug = theme.toLowerCase().replace(/ /g, '-');
    const found: string[] = [];
    for (const f of FILES) {
      const view = await vs.open(f.file, f.family);
      await view.locator('[role="treeitem"][aria-level="2"]').first().waitFor({ timeout: 15_000 });
      await vs.shot(`theme-${slug}-${f.family}`);
      const tabs = view.locator('[role="tab"]');
      for (let i = 0; i < (await tabs.count()); i++) {
        const tab = tabs.nth(i);
        const title = (await tab.textContent()) ?? String(i);
        await tab.click();
        await view.locator(`[role="tab"][aria-selected="true"]`, { hasText: title }).waitFor({ timeout: 10_000 });
        // A panel draws once its data is in; a table once its first rows are.
        await view
          .locator('.tabpanel [aria-busy="true"]')
          .first()
          .waitFor({ state: 'detached', timeout: 15_000 })
          .catch(() => undefined);
        await vs.page.waitForTimeout(400);
        await vs.page
          .locator('iframe.webview.ready')
          .screenshot({ path: join(SHOTS, 'theme-walk', `${slug}-${f.family}-${i}-${title.replace(/[^\w.-]+/g, '_')}.png`) });
        const violations = await seriousViolations(await vs.webviewFrame());
        if (violations.length) found.push(`${theme}, ${f.file}, tab ${title}: ${JSON.stringify(violations, null, 1)}`);
      }
    }
    expect(found).toEqual([]);
  });
});
