import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadSeeds } from './corpus.js';
import { input } from './inputs.js';
import { landmarks } from './pipeline.js';

/**
 * `npm run fuzz [-- --ci | --long] [--count N] [--seconds S] [--seed N] [--family F]`.
 * Mutations of every fixture go through open → structure → pages → verify → convert in worker
 * threads with a 512 MB heap each; the main thread stops an input that runs past 2 s. Any
 * exception other than FormatError, any hang, slow input or out-of-memory is a finding, saved
 * under test/corpus/<family>/ so it becomes a regression test.
 */
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const ROOT = resolve(__dirname, '..');
const FIXTURES = resolve(ROOT, '../shared/fixtures');
const CORPUS = join(ROOT, 'test/corpus');
const PER_INPUT_MS = 2000;
const HEAP_MB = 512;

const seeds = loadSeeds([FIXTURES, CORPUS]);
const allFamilies = [...new Set(seeds.map((s) => s.family))].sort();
const families = value('--family') ? [value('--family')!] : allFamilies;
const perFamily = flag('--long') ? 1_000_000 : undefined;
const count = Number(value('--count') ?? (perFamily ? perFamily * families.length : flag('--ci') ? 100_000 : 20_000));
const seconds = Number(value('--seconds') ?? (flag('--long') ? 24 * 3600 : flag('--ci') ? 300 : 120));
const runSeed = Number(value('--seed') ?? (flag('--ci') ? 1 : Date.now() % 1_000_000));
const workers = Math.max(1, Math.min(availableParallelism(), Number(value('--workers') ?? availableParallelism())));

interface Finding {
  kind: 'crash' | 'hang' | 'slow' | 'out-of-memory';
  index: number;
  detail: string;
}

async function main(): Promise<number> {
  const marks = await Promise.all(seeds.map((s) => landmarks(s.bytes, s.name)));
  const started = Date.now();
  const deadline = started + seconds * 1000;
  const done = new Map<string, number>();
  const findings: Finding[] = [];
  // Saved and printed as they happen: a long run that is stopped keeps what it found.
  const found = (f: Finding) => {
    findings.push(f);
    save(f, marks);
    console.log(`fuzz: ${f.kind} at input ${f.index}: ${f.detail.split('\n').slice(0, 4).join(' | ')}`);
  };
  let next = 0;
  let finished = 0;
  /** Inputs of a batch whose worker was stopped, still to run. */
  const pending: { from: number; count: number }[] = [];
  console.log(`fuzz: ${seeds.length} seed files, families ${families.join(', ')}, ${count} inputs, seed ${runSeed}, ${workers} workers, ${seconds} s budget`);

  const runWorker = () =>
    new Promise<void>((resolveWorker) => {
      let current = -1;
      let batchEnd = -1;
      let timer: NodeJS.Timeout | undefined;
      const worker = new Worker(join(__dirname, 'fuzz-worker.js'), { workerData: { seeds, marks, seed: runSeed }, resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } });
      const feed = () => {
        if ((pending.length === 0 && next >= count) || Date.now() > deadline) {
          void worker.terminate();
          return;
        }
        const job = pending.shift() ?? { from: next, count: Math.min(200, count - next) };
        if (job.from === next) next += job.count;
        batchEnd = job.from + job.count;
        worker.postMessage({ ...job, families });
      };
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          found({ kind: 'hang', index: current, detail: `no answer after ${PER_INPUT_MS * 2} ms` });
          void worker.terminate();
        }, PER_INPUT_MS * 2);
      };
      worker.on('message', (m: { kind: string; index: number; family?: string; ms?: number; crash?: string }) => {
        if (m.kind === 'start') {
          current = m.index;
          arm();
        } else if (m.kind === 'done') {
          clearTimeout(timer);
          finished++;
          done.set(m.family!, (done.get(m.family!) ?? 0) + 1);
          if (m.crash) found({ kind: 'crash', index: m.index, detail: m.crash });
          else if (m.ms! > PER_INPUT_MS) found({ kind: 'slow', index: m.index, detail: `${Math.round(m.ms!)} ms` });
        } else if (m.kind === 'batch') {
          current = batchEnd - 1;
          feed();
        }
      });
      worker.on('error', (e: Error & { code?: string }) => {
        found({ kind: e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out-of-memory' : 'crash', index: current, detail: `${e.code ?? ''} ${e.message}` });
      });
      worker.on('exit', () => {
        clearTimeout(timer);
        // A worker stopped for a hang or out of memory is replaced; the rest of its batch, past
        // the input that stopped it, goes back in the queue.
        if (current + 1 < batchEnd) pending.push({ from: current + 1, count: batchEnd - current - 1 });
        if ((next < count || pending.length > 0) && Date.now() <= deadline) void runWorker().then(resolveWorker);
        else resolveWorker();
      });
      feed();
    });

  const progress = setInterval(() => {
    const s = (Date.now() - started) / 1000;
    process.stderr.write(`fuzz: ${finished} inputs in ${s.toFixed(0)} s (${(finished / s).toFixed(0)}/s), ${findings.length} findings\n`);
  }, 10_000);
  await Promise.all(Array.from({ length: workers }, runWorker));
  clearInterval(progress);

  const elapsed = (Date.now() - started) / 1000;
  const byFamily = allFamilies.map((f) => `${f} ${done.get(f) ?? 0}`).join(', ');
  console.log(`fuzz: ${finished} inputs in ${elapsed.toFixed(1)} s (${(finished / elapsed).toFixed(0)}/s): ${byFamily}`);
  // Inputs that hung or ran out of memory ran too: they are findings, not missing inputs.
  const ran = finished + findings.filter((f) => f.kind === 'hang' || f.kind === 'out-of-memory').length;
  const enough = ran >= count;
  console.log(`fuzz: ${findings.length === 0 && enough ? 'passed' : 'FAILED'}: ${findings.length} findings${enough ? '' : `, only ${ran} of ${count} inputs ran within ${seconds} s`}`);
  return findings.length === 0 && enough ? 0 : 1;

  function save(f: Finding, m: typeof marks): void {
    if (f.index < 0) return;
    const made = input(seeds, m, runSeed, f.index, families);
    const hash = createHash('sha256').update(made.bytes).digest('hex').slice(0, 12);
    const dir = join(CORPUS, made.family);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${f.kind}-${hash}-${made.name}`);
    writeFileSync(file, made.bytes);
    writeFileSync(`${file}.json`, JSON.stringify({ kind: f.kind, seed: runSeed, index: f.index, source: made.source, mutations: made.mutations, detail: f.detail }, null, 2));
  }
}

main().then((code) => process.exit(code));
