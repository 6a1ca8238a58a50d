import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isMainThread } from 'node:worker_threads';
import { installNativeCodecs } from '../core/codecs/native.js';
import { lendXzBlockEncoders } from '../core/codecs/xz/blockEncoders.js';
import { describeError, FormatError } from '../core/errors.js';
import { nodeCodecs } from '../core/io/nodeCodecs.js';
import { OutputExistsError } from '../core/io/nodeOutput.js';
import { handlers } from '../core/registry.js';
import { EXIT_UNREADABLE, UsageError } from './files.js';
import { exitQuietlyOnClosedPipe } from './stdout.js';

// The families come from the registry, so a new format shows up here without an edit.
const EXTENSIONS = handlers.flatMap((h) => h.extensions).join(' ');
const FORMAT_IDS = handlers.map((h) => h.id).join(', ');

const USAGE = `binlens: look inside binary data files (${EXTENSIONS})

usage:
  binlens info FILE [--json] [--fast]        format, version, exact counts, header fields; --fast: headers only
  binlens verify FILE|FOLDER... [--json] [--jobs N]
                                             exit 0 all pass, 1 a check failed, 2 unreadable;
                                             --jobs: N files at a time on worker threads
  binlens cat FILE [--from N] [--count M] [--format jsonl|tsv|csv|raw] [--set KEY=VALUE] [--salvage] [--strict]
  binlens dump FILE [--brief]                annotated structure as text; --brief: header, counts, a SHA-256 per section
  binlens convert IN OUT [--to ID] [--force] [--set KEY=VALUE]... [--salvage] [--strict]
  binlens stats ENSEMBLE [--graph GRAPH.json] --sum ATTR... [--format jsonl|csv] [--from N] [--count M]
                [--summary] [--reference SAMPLE|PLAN.json] [--population ATTR] [--election D,R[,...]]...
                                             district sums and cut edges per plan, or their distributions;
                                             --population, --election (summary): population deviation,
                                             seats, efficiency gap and mean-median distributions
  binlens diff A B [--json] [--key COLUMN]   what changed: exit 0 same, 1 different, 2 trouble;
                                             --key: table rows matched by that column (IDV, bindu)

  cat and convert exit 1 when data they would write is damaged (a checksum fails); convert then
  writes nothing.
  --salvage     write every intact part, leave damaged ones out, list them on stderr (exit 1)
  --strict      exit 1 also when parts are left out by design (a column no codec decodes)

  --as FORMAT   read the file as this format (${FORMAT_IDS}) instead of detecting it
  --modern      cat: read legacy IDV NA values the way today's ML.NET does (same as --set modern=true)
`;

/** The command line's options, for every command (each reads the ones it takes). */
const OPTIONS = {
  json: { type: 'boolean', default: false },
  from: { type: 'string' },
  count: { type: 'string' },
  format: { type: 'string' },
  to: { type: 'string' },
  force: { type: 'boolean', default: false },
  set: { type: 'string', multiple: true, default: [] },
  as: { type: 'string' },
  modern: { type: 'boolean', default: false },
  salvage: { type: 'boolean', default: false },
  strict: { type: 'boolean', default: false },
  brief: { type: 'boolean', default: false },
  fast: { type: 'boolean', default: false },
  graph: { type: 'string' },
  sum: { type: 'string', multiple: true, default: [] },
  summary: { type: 'boolean', default: false },
  reference: { type: 'string' },
  population: { type: 'string' },
  election: { type: 'string', multiple: true, default: [] },
  key: { type: 'string' },
  jobs: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

type Values = ReturnType<typeof parseCommandLine>['values'];

function parseCommandLine(argv: readonly string[]) {
  return parseArgs({ args: [...argv], allowPositionals: true, options: OPTIONS });
}

async function main(argv: readonly string[]): Promise<number> {
  // Node's zlib for the codecs that have a native form (core/codecs/native.ts).
  installNativeCodecs(nodeCodecs);
  // XBEN encodes its xz blocks on a thread per core, each a worker running this script again.
  lendXzBlockEncoders(async () => (await import('../core/codecs/xz/blockWorkers.node.js')).nodeXzBlockEncoders(process.argv[1]!));
  const { values, positionals } = parseCommandLine(argv);
  const [command, ...files] = positionals;
  if (values.version) {
    console.log(VERSION);
    return 0;
  }
  if (values.help || command === undefined || command === 'help') {
    console.log(USAGE);
    return command === undefined && !values.help ? EXIT_UNREADABLE : 0;
  }
  return runCommand(command, files, values);
}

async function runCommand(command: string, files: readonly string[], values: Values): Promise<number> {
  const one = (): string => {
    if (files.length !== 1) throw new UsageError(`${command} takes one file`);
    return files[0]!;
  };
  // Each command's module loads only when it runs: `binlens info` should not pay for convert's code.
  switch (command) {
    case 'info':
      return (await import('./info.js')).infoCommand(one(), { json: values.json, format: values.as, fast: values.fast });
    case 'verify':
      if (files.length === 0) throw new UsageError('verify takes at least one file or folder');
      return (await import('./verify.js')).verifyCommand(files, { json: values.json, format: values.as, jobs: positive('--jobs', values.jobs) });
    case 'cat': {
      const options: Record<string, string | boolean | number> = Object.fromEntries(values.set.map(splitSetting));
      if (values.modern) options.modern = true;
      return (await import('./cat.js')).catCommand(one(), {
        from: integer('--from', values.from),
        count: integer('--count', values.count),
        format: values.format,
        options,
        as: values.as,
        salvage: values.salvage,
        strict: values.strict,
      });
    }
    case 'dump':
      return (await import('./dump.js')).dumpCommand(one(), { format: values.as, brief: values.brief });
    case 'convert':
      if (files.length !== 2) throw new UsageError('convert takes IN and OUT');
      return (await import('./convert.js')).convertCommand(files[0]!, files[1]!, {
        to: values.to,
        force: values.force,
        set: values.set,
        as: values.as,
        salvage: values.salvage,
        strict: values.strict,
      });
    case 'diff':
      if (files.length !== 2) throw new UsageError('diff takes two files, A and B');
      return (await import('./diff.js')).diffCommand(files[0]!, files[1]!, { json: values.json, as: values.as, key: values.key });
    case 'stats':
      return (await import('./stats.js')).statsCommand(one(), {
        graph: values.graph,
        sums: values.sum,
        format: values.format,
        from: integer('--from', values.from),
        count: integer('--count', values.count),
        summary: values.summary,
        reference: values.reference,
        population: values.population,
        elections: values.election,
        as: values.as,
      });
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

declare const BINLENS_VERSION: string | undefined;
const VERSION = typeof BINLENS_VERSION === 'string' ? BINLENS_VERSION : 'dev';

function splitSetting(item: string): [string, string] {
  const eq = item.indexOf('=');
  return eq < 0 ? [item, 'true'] : [item.slice(0, eq), item.slice(eq + 1)];
}

function positive(name: string, raw: string | undefined): number | undefined {
  const n = integer(name, raw);
  if (n === 0) throw new UsageError(`${name} takes a positive integer`);
  return n;
}

function integer(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new UsageError(`${name} takes a non-negative integer, not "${raw}"`);
  return n;
}

// `verify --jobs N` and the XBEN encoder start this script again on worker threads (cli/verifyPool.ts,
// codecs/xz/blockWorkers.node.ts): there it serves their jobs.
if (!isMainThread) {
  void import('./verify.js').then((m) => m.isVerifyWorker() && m.serveVerifyJobs());
  void import('../core/codecs/xz/blockWorkers.node.js').then((m) => m.serveXzBlocksIfWorker());
} else runCli();

function runCli(): void {
  exitQuietlyOnClosedPipe();
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      if (e instanceof UsageError || (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS'))) {
        console.error(`binlens: ${e.message}\n\n${USAGE}`);
      } else if (e instanceof FormatError || e instanceof OutputExistsError) {
        console.error(`binlens: ${e.message}`);
      } else if (e instanceof Error && 'code' in e && typeof e.code === 'string' && 'path' in e) {
        console.error(`binlens: ${e.message}`);
      } else {
        console.error(`binlens: ${describeError(e)}`);
        if (e instanceof Error && e.stack) console.error(e.stack);
      }
      process.exitCode = EXIT_UNREADABLE;
    },
  );
}
