import { basename, resolve } from 'node:path';
import { engineHandlers } from '../../src/host/engine/engine.js';
import { IndexStore } from '../../src/host/engine/indexStore.js';
import { nodePlatform } from '../../src/host/engine/nodePlatform.js';
import type { EngineOps, TableDTO } from '../../src/protocol/protocol.js';
import type { Handlers } from '../../src/protocol/rpc.js';
import { type LargeKind, largeFile } from '../large.js';
import type { BenchCase, BenchResult } from '../types.js';

/**
 * Open is O(header): the first screen of a file (what the editor shows before anyone scrolls:
 * the summary, the top of the structure tree and the first page of the first table) through the
 * engine's own operations, in a fresh process as in a fresh engine worker, for files from 1 KB
 * to 2 GB. Targets (issue #8): under 250 ms and 64 MB of extra memory whatever the size; a page
 * anywhere (the middle and the last, after the background count or index) under 100 ms.
 */
const FIXTURES = resolve('../shared/fixtures');

interface Subject {
  readonly name: string;
  path(): Promise<string>;
  /** Large enough that the last page is a real seek. */
  readonly large: boolean;
}

const fixture = (name: string, rel: string): Subject => ({ name, path: async () => resolve(FIXTURES, rel), large: false });
const generated = (kind: LargeKind): Subject => ({ name: kind, path: () => largeFile(kind), large: true });

const SUBJECTS: readonly Subject[] = [
  fixture('ben-1k', 'ben/grid4x4_chain.standard.ben'),
  generated('ben-100m'),
  generated('ben-2g'),
  fixture('xorb-1k', 'xorb/05_single_chunk.xorb'),
  generated('xorb-64m'),
  fixture('idv-1k', 'idv/mlnet-model-embedded/termlookup__DataLoaderModel_Transform_000_DefaultMap.idv'),
  generated('idv-1m'),
  fixture('fst-1k', 'fst/wide.set.fst3.fst'),
  generated('fst-5m'),
  fixture('bindu-1k', 'bindu/sample.bindu'),
  generated('bindu-1m'),
];

/** The rows the table view asks for first. */
const FIRST_PAGE = 100;
const CHILDREN = 200;

const signal = new AbortController().signal;
const ctx = { signal, emit: () => {} };

async function firstScreen(engine: Handlers<EngineOps>, path: string): Promise<TableDTO | undefined> {
  const opened = await engine.open({ doc: 'd', path, name: basename(path) }, ctx);
  if (opened.kind !== 'opened') throw new Error(`${path} did not open: ${opened.reason}`);
  const { root, tables } = opened.doc;
  await engine.children({ doc: 'd', node: root.id, from: 0, count: CHILDREN }, ctx);
  const first = tables[0];
  if (first) await engine.page({ doc: 'd', table: first.id, from: 0, count: FIRST_PAGE }, ctx);
  return first;
}

const extraMb = (rssBefore: number) => (process.resourceUsage().maxRSS * 1024 - rssBefore) / 2 ** 20;

export const cases: BenchCase[] = SUBJECTS.flatMap((s): BenchCase[] => {
  const open: BenchCase = {
    id: `open-${s.name}`,
    title: `first screen of ${s.name}`,
    runs: 5,
    prepare: async () => void (await s.path()),
    async run(): Promise<BenchResult> {
      const path = await s.path();
      const engine = engineHandlers(nodePlatform);
      const rss = process.memoryUsage().rss;
      const start = process.hrtime.bigint();
      await firstScreen(engine, path);
      const timedMs = Number(process.hrtime.bigint() - start) / 1e6;
      return { timedMs, extraRssMb: extraMb(rss) };
    },
  };
  if (!s.large) return [open];
  /** A page far from the start, after the background count or indexing the viewer runs. */
  const far = (where: 'last' | 'middle'): BenchCase => ({
    id: `page-${s.name}-${where}`,
    title: `${where} page of ${s.name} (after the background count or index the viewer runs)`,
    runs: 3,
    prepare: async () => void (await s.path()),
    async run(): Promise<BenchResult> {
      const path = await s.path();
      const engine = engineHandlers(nodePlatform);
      const table = (await firstScreen(engine, path))!;
      const count = table.countable ? await engine.count({ doc: 'd', table: table.id }, ctx) : table.rowCount;
      const last = Math.max(0, count.known - FIRST_PAGE);
      const from = where === 'last' ? last : Math.floor(last / 2);
      const rss = process.memoryUsage().rss;
      const start = process.hrtime.bigint();
      const rows = await engine.page({ doc: 'd', table: table.id, from, count: FIRST_PAGE }, ctx);
      const timedMs = Number(process.hrtime.bigint() - start) / 1e6;
      if (rows.length === 0) throw new Error(`${s.name}: the ${where} page is empty`);
      return { timedMs, extraRssMb: extraMb(rss) };
    },
  });
  /**
   * The same last page in a second session (issue 18 item 3): a fresh engine whose index store
   * holds what the first session's count saved. Target: open and the last page under 100 ms.
   */
  const reopen: BenchCase = {
    id: `reopen-${s.name}-last`,
    title: `open and last page of ${s.name} again, from the saved index (a second session)`,
    runs: 3,
    async prepare(data) {
      const engine = engineHandlers({ ...nodePlatform, indexes: new IndexStore(storeDir(data)) });
      const table = (await firstScreen(engine, await s.path()))!;
      if (table.countable) await engine.count({ doc: 'd', table: table.id }, ctx);
      await engine.close({ doc: 'd' }, ctx);
    },
    async run(data): Promise<BenchResult> {
      const path = await s.path();
      const engine = engineHandlers({ ...nodePlatform, indexes: new IndexStore(storeDir(data)) });
      const rss = process.memoryUsage().rss;
      const start = process.hrtime.bigint();
      const opened = await engine.open({ doc: 'd', path, name: basename(path) }, ctx);
      if (opened.kind !== 'opened') throw new Error(`${path} did not open`);
      const table = opened.doc.tables[0]!;
      if (!table.rowCount.complete) throw new Error(`${s.name}: the saved index was not used (count not final at open)`);
      const rows = await engine.page({ doc: 'd', table: table.id, from: Math.max(0, table.rowCount.known - FIRST_PAGE), count: FIRST_PAGE }, ctx);
      const timedMs = Number(process.hrtime.bigint() - start) / 1e6;
      if (rows.length === 0) throw new Error(`${s.name}: the last page is empty`);
      return { timedMs, extraRssMb: extraMb(rss) };
    },
  };
  return [open, far('middle'), far('last'), ...(s.name.startsWith('ben') ? [reopen] : [])];
});

/** The bench's own index store: a viewer's global storage stand-in. */
const storeDir = (data: string) => resolve(data, 'indexes');
