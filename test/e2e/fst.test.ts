import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VsCodeSession } from './session.js';

/**
 * The fst viewer in a real VS Code: a prefix search in the webview finds the keys the
 * reference reader finds, and the automaton view draws the small map (and the path of a key
 * in the 300,000-key map), clickable, with the inspected state's details.
 */
describe('fst in VS Code (code-server)', () => {
  let vs: VsCodeSession;

  beforeAll(async () => {
    vs = await VsCodeSession.start([
      { file: 'small.map.fst3.fst', from: 'fst/small.map.fst3.fst' },
      { file: 'medium.map.fst3.fst', from: 'fst/medium.map.fst3.fst' },
    ]);
  });

  afterAll(async () => {
    await vs?.stop();
  });

  async function guarded(name: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (e) {
      await vs.shot(`failed-${name}`);
      throw new Error(`${(e as Error).message}\n--- code-server log ---\n${vs.logTail()}`);
    }
  }

  it('a prefix search in the webview lists the keys starting with "mon"', () =>
    guarded('fst-search', async () => {
      const view = await vs.open('small.map.fst3.fst', 'fst');
      await view.getByRole('tab', { name: 'Search' }).click();
      await view.getByLabel('Search kind').selectOption('prefix');
      await view.getByLabel('Starts with').fill('mon');
      await view.getByRole('button', { name: 'Search', exact: true }).click();
      const results = view.locator('.search-results');
      await view.locator('.search-view .row-count', { hasText: '3 results' }).waitFor({ timeout: 20_000 });
      const keys = () => results.locator('.vt-body .vt-row .vt-cell:first-child').allTextContents();
      await expect.poll(keys, { timeout: 10_000 }).toEqual(['mon', 'monday', 'month']);
      await vs.shot('fst-prefix-search');
    }));

  it('the automaton view draws every state of the small map; clicking one inspects it', () =>
    guarded('fst-automaton', async () => {
      const view = await vs.open('small.map.fst3.fst', 'fst');
      await view.getByRole('tab', { name: 'Automaton' }).click();
      const states = view.locator('svg.automaton g.state');
      await states.first().waitFor({ timeout: 20_000 });
      expect(await states.count()).toBe(58);
      await view.locator('svg.automaton g.state[aria-label^="state 204"]').click();
      await view.locator('.automaton-panel h3', { hasText: 'node @204' }).waitFor({ timeout: 20_000 });
      await vs.page.waitForTimeout(300);
      await vs.shot('fst-automaton');
    }));

  it('a 300,000-key map opens at once, and the automaton view draws the path of a key', () =>
    guarded('fst-medium', async () => {
      const view = await vs.open('medium.map.fst3.fst', 'fst');
      await view.locator('.table-view .row-count', { hasText: '300,000 rows' }).waitFor({ timeout: 20_000 });
      await view.getByRole('tab', { name: 'Automaton' }).click();
      await view.getByLabel('Key path').fill('doc/1');
      await view.getByLabel('Key path').press('Enter');
      await view.locator('.automaton-panel .note', { hasText: 'path of the key' }).waitFor({ timeout: 30_000 });
      expect(await view.locator('svg.automaton g.state').count()).toBeGreaterThan(5);
      await vs.shot('fst-automaton-path');
    }));
});
