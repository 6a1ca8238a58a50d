import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyKind, writeIdv } from '../../src/core/formats/idv/testFiles.js';
import { VsCodeSession } from './session.js';

/** ML.NET dataviews in a real VS Code: schema, rows, the legacy NA toggle and an expanded vector. */

describe('ML.NET dataviews in VS Code (code-server)', () => {
  let vs: VsCodeSession;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'binlens-e2e-idv-'));
    const { columns, rows } = everyKind(300);
    writeFileSync(join(dir, 'features.idv'), await writeIdv(columns, rows, { rowsPerBlock: 64, compression: 1 }));
    vs = await VsCodeSession.start([
      { file: 'datatypes.idv', from: 'idv/mlnet-testdata/datatypes.idv' },
      { file: 'features.idv', from: join(dir, 'features.idv') },
    ]);
  });

  afterAll(async () => {
    await vs?.stop();
  });

  async function attempt(name: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (e) {
      await vs.shot(`failed-idv-${name}`);
      throw new Error(`${(e as Error).message}\n--- code-server log ---\n${vs.logTail()}`);
    }
  }

  it('shows the rows and the schema of a dataview, vectors, keys and hidden columns included', async () => {
    await attempt('schema', async () => {
      const view = await vs.open('features.idv', 'idv');
      await view
        .locator('[role="gridcell"]', { hasText: /^row 1 ✓ x$/ })
        .first()
        .waitFor({ timeout: 20_000 });
      expect(await view.locator('[role="columnheader"]').allTextContents()).toEqual(expect.arrayContaining(['Dense', 'Color', 'Name (hidden)']));
      await view.locator('[role="gridcell"]', { hasText: '[4] 1, -1, 0.25, 0.5' }).first().waitFor();
      await vs.page.waitForTimeout(300);
      await vs.shot('idv-rows');
      await view.locator('[role="tab"]', { hasText: 'Schema' }).click();
      await view.locator('[role="gridcell"]', { hasText: 'Vector<Single, 4>' }).waitFor({ timeout: 10_000 });
      await view.locator('[role="gridcell"]', { hasText: 'SlotNames, IsNormalized' }).waitFor();
      await view.locator('[role="gridcell"]', { hasText: 'hidden (shadowed)' }).waitFor();
      await vs.shot('idv-schema');
    });
  });

  it('expands a vector into columns headed by its slot names', async () => {
    await attempt('expand', async () => {
      const view = await vs.open('features.idv', 'idv');
      await view.locator('form.table-params select').first().selectOption({ label: 'Dense (Vector<Single, 4>)' });
      for (const slot of ['w', 'x', 'y', 'z']) await view.locator('[role="columnheader"]', { hasText: new RegExp(`^${slot}$`) }).waitFor({ timeout: 10_000 });
      await vs.shot('idv-expanded');
    });
  });

  it("toggles a 1.1.1.5 file between today's reading and legacy NA values", async () => {
    await attempt('legacy', async () => {
      const view = await vs.open('datatypes.idv', 'idv');
      await view.locator('[role="gridcell"]', { hasText: /^xyz$/ }).waitFor({ timeout: 20_000 });
      await view
        .locator('[role="gridcell"].warn', { hasText: /^-128$/ })
        .first()
        .waitFor();
      await view.locator('form.table-params select').first().selectOption('legacy');
      await view.locator('[role="gridcell"]', { hasText: /^NA$/ }).first().waitFor({ timeout: 10_000 });
      expect(await view.locator('[role="gridcell"]', { hasText: /^NA$/ }).count()).toBeGreaterThanOrEqual(9);
      await vs.shot('idv-legacy-na');
    });
  });
});
