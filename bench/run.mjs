// `npm run bench [-- FILTER] [--runs N]`: every case in bench/cases, Binlens against the native
// tool where the machine has it, several runs each in a fresh process; one table, bench/results.json,
// and the generated section of bench/RESULTS.md (bench/results.ts). Timings live here, never in unit tests.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const args = process.argv.slice(2);
const runsArg = args.indexOf('--runs');
const runsOverride = runsArg >= 0 ? Number(args[runsArg + 1]) : undefined;
const filter = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs');

const out = resolve('bench/.build');
const data = resolve('bench/.data');
mkdirSync(data, { recursive: true });
const caseFiles = readdirSync('bench/cases').filter((f) => f.endsWith('.ts'));
await build({
  entryPoints: ['bench/runner.ts', 'bench/results.ts', ...caseFiles.map((f) => `bench/cases/${f}`)],
  outbase: 'bench',
  outdir: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  loader: { '.wasm': 'binary' },
  // Loaded from node_modules as it is: bundled into an ES module, its CommonJS reads __dirname at load.
  external: ['playwright-core'],
  banner: { js: "import { createRequire as benchCreateRequire } from 'node:module'; const require = benchCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
const { latestSection, ratioTable, replaceLatest } = await import(join(out, 'results.mjs'));

const hasTime = existsSync('/usr/bin/time');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function measureBinlens(file, id, mode = 'run') {
  const r = spawnSync(process.execPath, [join(out, 'runner.mjs'), file, id, data, mode], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${id}: ${r.stderr}`);
  return mode === 'run' ? JSON.parse(r.stdout.trim().split('\n').pop()) : undefined;
}

function measureNative(command) {
  const argv = hasTime ? ['/usr/bin/time', '-f', '%M', ...command] : command;
  const start = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${command.join(' ')}: ${r.stderr}`);
  const rss = hasTime ? Number(r.stderr.trim().split('\n').pop()) : undefined;
  // A tool that times its own loop (a batch of queries after opening the file) says so on stderr.
  const timed = /^timed-ms (\S+)$/m.exec(r.stderr);
  return { ms: timed ? Number(timed[1]) : ms, maxRssKb: rss };
}

const rows = [];
const failed = [];
let merged = [];
for (const f of caseFiles) {
  const file = join(out, 'cases', f.replace(/\.ts$/, '.mjs'));
  const { cases } = await import(file);
  for (const c of cases) {
    if (filter && !c.id.includes(filter)) continue;
    process.stderr.write(`bench: ${c.id} …\n`);
    try {
      rows.push(measureCase(c, file));
    } catch (e) {
      // One broken case must not cost the others' numbers: it is reported and the run goes on.
      process.stderr.write(`bench: ${c.id} FAILED: ${e.message}\n`);
      failed.push(c.id);
    }
    save();
  }
}

function measureCase(c, file) {
  measureBinlens(file, c.id, 'prepare');
  const runs = runsOverride ?? c.runs ?? 5;
  const nativeSpec = c.native?.(data);
  // Runs alternate with the native tool's: this machine has slow and fast phases lasting seconds,
  // and all of one side's runs before the other's skewed a ratio by up to 30 %.
  const ours = [];
  const theirs = [];
  for (let i = 0; i < runs; i++) {
    ours.push(measureBinlens(file, c.id));
    if (nativeSpec) theirs.push(measureNative(nativeSpec.command));
  }
  const ms = ours.map((r) => r.timedMs ?? r.ms);
  const extra = ours.map((r) => r.extraRssMb).filter((x) => x !== undefined);
  const nms = theirs.map((r) => r.ms);
  const row = {
    id: c.id,
    title: c.title,
    runs,
    binlens: {
      medianMs: median(ms),
      minMs: Math.min(...ms),
      maxMs: Math.max(...ms),
      peakRssMb: Math.max(...ours.map((r) => r.maxRssKb)) / 1024,
      extraRssMb: extra.length ? Math.max(...extra) : null,
    },
    native: nativeSpec
      ? {
          label: nativeSpec.label,
          medianMs: median(nms),
          minMs: Math.min(...nms),
          maxMs: Math.max(...nms),
          peakRssMb: theirs[0].maxRssKb === undefined ? null : Math.max(...theirs.map((r) => r.maxRssKb)) / 1024,
        }
      : null,
    ratio: nativeSpec ? median(ms) / median(nms) : null,
    items: ours[0].items ?? null,
    bytes: ours[0].bytes ?? null,
    table: ours[ours.length - 1].table ?? null,
    date: new Date().toISOString(),
  };
  return row;
}

/**
 * bench/results.json after every case, so an interrupted session keeps what it measured. A
 * filtered run replaces its own cases' rows and keeps the others (each row has its own date).
 */
function save() {
  const previous = filter && existsSync('bench/results.json') ? (JSON.parse(readFileSync('bench/results.json', 'utf8')).rows ?? []) : [];
  const ids = new Set(rows.map((r) => r.id));
  merged = [...previous.filter((r) => !ids.has(r.id)), ...rows];
  writeFileSync('bench/results.json', JSON.stringify({ date: new Date().toISOString(), node: process.version, rows: merged }, null, 2));
}

console.log(ratioTable(rows));
for (const r of rows.filter((x) => x.table)) console.log(`\n${r.title}\n\n${r.table}`);

// The latest results, in bench/RESULTS.md between its markers; the dated sections stay as they are.
if (merged.length) {
  const machine = {
    cores: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    load: loadavg(),
  };
  const section = latestSection({ date: new Date().toISOString(), machine, filter, rows: merged, measured: rows.map((r) => r.id), failed });
  writeFileSync('bench/RESULTS.md', replaceLatest(readFileSync('bench/RESULTS.md', 'utf8'), section));
  console.log('\nbench: wrote the latest results into bench/RESULTS.md');
}
if (failed.length) {
  console.log(`\nbench: ${failed.length} case(s) failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
