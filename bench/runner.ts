// One measured run of one case in this process: `node runner.mjs CASE_FILE CASE_ID DATA_DIR`.
// Prints {ms, maxRssKb, items, bytes} as JSON on the last line.
import type { BenchCase } from './types.js';

const [file, id, data, mode] = process.argv.slice(2);
const mod = (await import(file!)) as { cases: BenchCase[] };
const c = mod.cases.find((x) => x.id === id);
if (!c) throw new Error(`no case ${id} in ${file}`);
if (mode === 'prepare') {
  await c.prepare?.(data!);
} else {
  const start = process.hrtime.bigint();
  const result = await c.run(data!);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(JSON.stringify({ ms, maxRssKb: process.resourceUsage().maxRSS, ...result }));
}
