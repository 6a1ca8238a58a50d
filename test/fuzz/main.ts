import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadSeeds } from './corpus.js';
import { input } from './inputs.js';
import { applyFlips, describeSilent, type Flip } from './oracle.js';
import { landmarks } from './pipeline.js';

/**
 * `npm run fuzz [-- --ci | --long] [--count N] [--seconds S] [--seed N] [--family F] [--oracle-every N]`.
 * Mutations of every fixture go through open → structure → pages → verify → convert in worker
 * threads with a 512 MB heap each; the main thread stops an input that runs past 2 s. Any
 * exception other than FormatError, any hang, slow input or out-of-memory is a finding, saved
 * under test/corpus/<family>/ so it becomes a regression test. One in N inputs of each family
 * also runs the silent-corruption oracle (oracle.ts) on an intact fixture; a read path that
 * finishes with changed output after a flip inside a checked range is a finding too.
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
/** How many deadlines a hang check waits out while the process gets less than half a core. */
const STARVED_LIMIT = 10;
const HEAP_MB = 512;
/** An oracle check reads every path of a seed in full (the first also makes the seed's baseline). */
const ORACLE_MS = 20_000;

const seeds = loadSeeds([FIXTURES, CORPUS]);
const allFamilies = [...new Set(seeds.map((s) => s.family))].sort();
const families = value('--family') ? [value('--family')!] : allFamilies;
const perFamily = flag('--long') ? 1_000_000 : undefined;
const count = Number(value('--count') ?? (perFamily ? perFamily * families.length : flag('--ci') ? 100_000 : 20_000));
const seconds = Number(value('--seconds') ?? (flag('--long') ? 24 * 3600 : flag('--ci') ? 300 : 120));
const runSeed = Number(value('--seed') ?? (flag('--ci') ? 1 : Date.now() % 1_000_000));
// An oracle check reads every path of a small fixture in full: cheaper than an input's pipeline.
// Measured on `--ci` (2 cores): 130.5 s without the oracle, 135.1 s (+4% CPU) with it on 1 in 2
// inputs. The long run, whose budget is hours, checks every input.
const oracleEvery = Number(value('--oracle-every') ?? (flag('--long') ? 1 : 2));
const workers = Math.max(1, Math.min(availableParallelism(), Number(value('--workers') ?? availableParallelism())));

interface Finding {
  kind: 'crash' | 'hang' | 'slow' | 'out-of-memory' | 'silent-corruption';
  index: number;
  detail: string;
  /** Set when the oracle found it: its input is this seed, with these flips when drawn. */
  oracle?: OracleInput;
}

interface OracleMessage {
  seed?: number;
  flips?: Flip[];
  outcome?: 'checked' | 'no-coverage' | 'unreadable';
  silent?: string[];
  caught?: number;
  same?: number;
}

interface OracleInput {
  seed: number;
  flips?: Flip[];
}

/** Oracle checks per family, what their read paths did, and draws that found nothing to check. */
interface OracleCounts {
  checked: number;
  /** Read paths that failed on a flipped seed (or seeds that no longer opened): the oracle is not vacuous. */
  caught: number;
  same: number;
  noCoverage: number;
  unreadable: number;
  silent: number;
}

/** Only fixtures are intact seeds: regression files are damaged on purpose. */
const oracleSeeds = seeds.flatMap((s, i) => (s.path.startsWith(FIXTURES + sep) ? [i] : []));

async function main(): Promise<number> {
  const marks = await Promise.all(seeds.map((s) => landmarks(s.bytes, s.name)));
  const started = Date.now();
  const deadline = started + seconds * 1000;
  const done = new Map<string, number>();
  const findings: Finding[] = [];
  const oracle = new Map<string, OracleCounts>(allFamilies.map((f) => [f, { checked: 0, caught: 0, same: 0, noCoverage: 0, unreadable: 0, silent: 0 }]));
  // Saved and printed as they happen: a long run that is stopped keeps what it found.
  const found = (f: Finding) => {
    findings.push(f);
    save(f, marks);
    console.log(`fuzz: ${f.kind} at input ${f.index}: ${f.detail.split('\n').slice(0, 4).join(' | ')}`);
  };
  const judged = (m: OracleMessage & { index: number; family?: string; crash?: string }) => {
    const counts = oracle.get(m.family!)!;
    const input = { seed: m.seed!, flips: m.flips };
    if (m.outcome === 'no-coverage') counts.noCoverage++;
    else if (m.outcome === 'unreadable') counts.unreadable++;
    else counts.checked++;
    counts.caught += m.caught ?? 0;
    counts.same += m.same ?? 0;
    if (m.crash) found({ kind: 'crash', index: m.index, oracle: input, detail: `oracle check of ${seeds[m.seed!]!.name}: ${m.crash}` });
    if (m.silent?.length) {
      counts.silent++;
      found({ kind: 'silent-corruption', index: m.index, oracle: input, detail: describeSilent(seeds[m.seed!]!.name, m.flips!, m.silent) });
    }
  };
  let next = 0;
  let finished = 0;
  /** Inputs of a batch whose worker was stopped, still to run. */
  const pending: { from: number; count: number }[] = [];
  console.log(
    `fuzz: ${seeds.length} seed files, families ${families.join(', ')}, ${count} inputs, seed ${runSeed}, ${workers} workers, ${seconds} s budget, ${oracleEvery > 0 ? `oracle on 1 in ${oracleEvery} inputs of each family` : 'oracle off'}`,
  );

  const runWorker = () =>
    new Promise<void>((resolveWorker) => {
      let current = -1;
      let currentOracle: OracleInput | undefined;
      let batchEnd = -1;
      let timer: NodeJS.Timeout | undefined;
      const worker = new Worker(join(__dirname, 'fuzz-worker.js'), {
        workerData: { seeds, marks, seed: runSeed, oracleSeeds, oracleEvery },
        resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
      });
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
      // A deadline in wall time alone fires for inputs that are fast but got no CPU: the long runs
      // share the cores with other work, and at a load of 13 on 2 cores one run saved 15 'hangs'
      // and 36 'slow' inputs that each took milliseconds alone. So a deadline that passes while the
      // process got less than half a core is extended, up to STARVED_LIMIT times; an input that
      // spins still burns the CPU and is a hang at the first deadline, one that waits forever
      // (no CPU at all) at the last.
      const arm = (ms: number, waited = 0, cpuAt = process.cpuUsage()) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          const cpu = process.cpuUsage(cpuAt);
          if ((cpu.user + cpu.system) / 1000 < ms / 2 && waited + ms < ms * STARVED_LIMIT) return arm(ms, waited + ms);
          found({ kind: 'hang', index: current, oracle: currentOracle, detail: `no answer after ${waited + ms} ms${currentOracle ? ' (oracle check)' : ''}` });
          void worker.terminate();
        }, ms);
      };
      worker.on('message', (m: OracleMessage & { kind: string; index: number; family?: string; ms?: number; cpuMs?: number; crash?: string }) => {
        if (m.kind === 'start') {
          current = m.index;
          currentOracle = undefined;
          arm(PER_INPUT_MS * 2);
        } else if (m.kind === 'oracle-start') {
          currentOracle = { seed: m.seed!, flips: m.flips };
          arm(ORACLE_MS);
        } else if (m.kind === 'oracle') {
          clearTimeout(timer);
          currentOracle = undefined;
          judged(m);
        } else if (m.kind === 'done') {
          clearTimeout(timer);
          finished++;
          done.set(m.family!, (done.get(m.family!) ?? 0) + 1);
          if (m.crash) found({ kind: 'crash', index: m.index, detail: m.crash });
          // Slow by the clock and by the CPU the process used meanwhile (wall time alone counts the waits for a core).
          else if (Math.min(m.ms!, m.cpuMs!) > PER_INPUT_MS)
            found({ kind: 'slow', index: m.index, detail: `${Math.round(m.ms!)} ms (${Math.round(m.cpuMs!)} ms of CPU)` });
        } else if (m.kind === 'batch') {
          current = batchEnd - 1;
          feed();
        }
      });
      worker.on('error', (e: Error & { code?: string }) => {
        found({
          kind: e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out-of-memory' : 'crash',
          index: current,
          oracle: currentOracle,
          detail: `${e.code ?? ''} ${e.message}`,
        });
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
  // Per family, so that each family's oracle starts counting as its coverage lands.
  for (const f of allFamilies) {
    const c = oracle.get(f)!;
    const skipped = [c.noCoverage && `${c.noCoverage} drew a seed with no coverage`, c.unreadable && `${c.unreadable} a seed no read path reads`]
      .filter(Boolean)
      .join(', ');
    console.log(
      `fuzz: oracle ${f}: ${c.checked} checks (read paths: ${c.caught} caught, ${c.same} unchanged), ${c.silent} silent${skipped ? `; skipped: ${skipped}` : ''}`,
    );
  }
  const kinds = ['crash', 'hang', 'slow', 'out-of-memory', 'silent-corruption'].map((k) => `${findings.filter((f) => f.kind === k).length} ${k}`);
  console.log(`fuzz: findings: ${kinds.join(', ')}`);
  // Inputs that hung or ran out of memory ran too: they are findings, not missing inputs. An
  // oracle check that hung ran after its input had finished.
  const ran = finished + findings.filter((f) => !f.oracle && (f.kind === 'hang' || f.kind === 'out-of-memory')).length;
  const enough = ran >= count;
  console.log(
    `fuzz: ${findings.length === 0 && enough ? 'passed' : 'FAILED'}: ${findings.length} findings${enough ? '' : `, only ${ran} of ${count} inputs ran within ${seconds} s`}`,
  );
  return findings.length === 0 && enough ? 0 : 1;

  function save(f: Finding, m: typeof marks): void {
    if (f.index < 0) return;
    const made = f.oracle ? oracleInput(f.oracle) : input(seeds, m, runSeed, f.index, families);
    const hash = createHash('sha256').update(made.bytes).digest('hex').slice(0, 12);
    const dir = join(CORPUS, made.family);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${f.kind}-${hash}-${made.name}`);
    writeFileSync(file, made.bytes);
    const how = f.oracle ? { oracle: true, flips: f.oracle.flips ?? [] } : { mutations: made.mutations };
    writeFileSync(`${file}.json`, JSON.stringify({ kind: f.kind, seed: runSeed, index: f.index, source: made.source, ...how, detail: f.detail }, null, 2));
  }

  /**
   * An oracle check's input: its seed, flipped (the seed itself when it failed before flipping).
   * Its source is named inside the fixtures, where the replay (replay.ts) finds it on any machine.
   */
  function oracleInput(o: OracleInput): { bytes: Uint8Array; name: string; family: string; source: string; mutations: string[] } {
    const s = seeds[o.seed]!;
    return {
      bytes: applyFlips(s.bytes, o.flips ?? []),
      name: s.name,
      family: s.family,
      source: relative(FIXTURES, s.path).split(sep).join('/'),
      mutations: [],
    };
  }
}

void main().then((code) => process.exit(code));
