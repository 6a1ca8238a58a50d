import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VsCodeSession } from './session.js';

/**
 * The browser build (package.json "browser", dist/web/extension.js) in VS Code's web worker
 * extension host: code-server runs it there when the extension kind is forced to "web", the way
 * vscode.dev runs every extension. No Node API is available to it.
 */
const FILES = [
  { family: 'fst', file: 'small.map.fst3.fst', from: 'fst/small.map.fst3.fst', title: 'FST format version 3' },
  { family: 'ben', file: 'flags_set.bendl', from: 'ben/independent/flags_set.bendl', title: 'BENDL bundle' },
  { family: 'xorb', file: '02_lz4_text.xorb', from: 'xorb/02_lz4_text.xorb', title: 'xorb with footer V1' },
  { family: 'idv', file: 'datatypes.idv', from: 'idv/mlnet-testdata/datatypes.idv', title: 'ML.NET binary dataview 1.1.1.5' },
  { family: 'bindu', file: 'sample.bindu', from: 'bindu/sample.bindu', title: 'Bindu open container v1' },
];

describe('Binlens in the web extension host', () => {
  let vs: VsCodeSession;

  beforeAll(async () => {
    vs = await VsCodeSession.start(FILES, { 'remote.extensionKind': { 'binlens.binlens': ['web'] } });
  });

  afterAll(async () => {
    await vs?.stop();
  });

  it.each(FILES)('opens a $family file and renders its webview', async ({ family, file, title }) => {
    const view = await vs.open(file, family);
    expect(await view.locator('h1').textContent()).toContain(title);
    await view.locator('[role="treeitem"][aria-level="2"]').first().waitFor({ timeout: 15_000 });
    await vs.shot(`web-${family}`);
  });

  it('runs in the web worker extension host', async () => {
    await vs.palette('Developer: Show Running Extensions');
    const entry = vs.page.locator('.monaco-list-row', { hasText: 'Binlens' }).first();
    await entry.waitFor({ timeout: 15_000 });
    expect(await entry.textContent()).toMatch(/web worker/i);
  });
});
