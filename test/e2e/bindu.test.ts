import { afterAll, beforeAll, describe, it } from 'vitest';
import { VsCodeSession } from './session.js';

/** A sealed .bindu opened by double-click in real VS Code: rows, frames, codec chains and the Merkle seal, each screenshotted. */
describe('Bindu in VS Code (code-server)', () => {
  let vs: VsCodeSession;

  beforeAll(async () => {
    vs = await VsCodeSession.start([{ file: 'sample.bindu', from: 'bindu/sample.bindu' }]);
  });

  afterAll(async () => {
    await vs?.stop();
  });

  it('shows decoded rows, the frame list, the codec chains and the Merkle seal', async () => {
    try {
      const view = await vs.open('sample.bindu', 'bindu');
      await view.locator('.tree-row .label', { hasText: 'Footer frame' }).first().waitFor({ timeout: 15_000 });
      // Rows come first: ts is a TS(ms) column decoded through DELTA → ZIGZAG → VARINT → DEFLATE.
      await view.locator('[role=gridcell]', { hasText: '1700000000000' }).first().waitFor({ timeout: 15_000 });
      await view.locator('[role=gridcell]', { hasText: 'warn' }).first().waitFor({ timeout: 15_000 });
      await vs.shot('bindu-rows');
      await view.getByRole('tab', { name: 'Frames' }).click();
      await view.locator('[role=gridcell]', { hasText: '0x07 MerkleTree' }).first().waitFor({ timeout: 15_000 });
      await view.locator('[role=gridcell]', { hasText: '0x80 UserMeta' }).first().waitFor({ timeout: 15_000 });
      await vs.shot('bindu-frames');
      await view.getByRole('tab', { name: 'Codec chains' }).click();
      await view.locator('.pipeline .stage', { hasText: 'DELTA(1)' }).first().waitFor({ timeout: 15_000 });
      await vs.shot('bindu-pipelines');
      await view.getByRole('tab', { name: 'Merkle seal' }).click();
      await view.locator('.tree-panel figcaption', { hasText: 'sealed: 11 leaves' }).waitFor({ timeout: 15_000 });
      await vs.shot('bindu-merkle');
    } catch (e) {
      await vs.shot('failed-bindu');
      throw new Error(`${(e as Error).message}\n--- code-server log ---\n${vs.logTail()}`);
    }
  });
});
