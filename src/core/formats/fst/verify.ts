import { fail, failFrom, info, pass, plural, warn } from '../../describe.js';
import { FormatError, throwIfAborted } from '../../errors.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { Check, TaskContext } from '../../model.js';
import type { FstReader } from './reader.js';
import { KeyStream } from './stream.js';

/**
 * Deep verify (spec fst.md §9): walks every key, decoding every reachable node, and checks
 * what the format promises but the reference `verify` (a CRC only) does not: each node lies
 * inside the node data, its transitions are in increasing input order, its targets point to
 * lower addresses (so a node pointing to itself or forward is caught and the walk cannot
 * loop), the v2/v3 index agrees with the transitions, every path ends in a key, and the
 * number of keys equals the footer count. Damaged subtrees are reported and skipped, up to
 * a limit, so one flipped byte does not hide the rest.
 */
const MAX_FINDINGS = 20;

export interface WalkResult {
  readonly keys: number;
  readonly valueBearing: boolean;
}

export async function* deepVerify(reader: FstReader, ctx: TaskContext, done?: (r: WalkResult) => void): AsyncIterable<Check> {
  const footer = reader.keyCount;
  const findings: Check[] = [];
  let keys = 0;
  let anyValue = false;
  let overflow = false;
  let damaged = 0;
  const reported = new Set<string>();
  const stream = new KeyStream(reader, {
    strict: true,
    onCorrupt: (e) => {
      // A damaged node shared by many paths is reported once.
      const id = `${e.field}:${e.detail}`;
      if (reported.has(id)) return true;
      reported.add(id);
      findings.push(failFrom('nodes', e));
      return ++damaged < MAX_FINDINGS;
    },
  });
  const total = Number(footer);
  try {
    for (;;) {
      throwIfAborted(ctx.signal);
      let slice = 0;
      const finished = await stream.run((_k, _l, hi, lo) => {
        keys++;
        if (hi !== 0 || lo !== 0) anyValue = true;
        // More keys than the footer counts: damage (e.g. a node sharing gone wrong) — stop, the walk could be huge.
        if (BigInt(keys) > footer + 1n) {
          overflow = true;
          return false;
        }
        return ++slice < 65536;
      }, ctx.signal);
      for (const f of findings.splice(0)) yield f;
      if (finished || overflow) break;
      ctx.progress?.({ done: keys, total, message: 'walking keys' });
      await yieldToEventLoop();
    }
  } catch (e) {
    if (!(e instanceof FormatError) || e.code === 'cancelled') throw e;
    for (const f of findings.splice(0)) yield f;
    yield failFrom('nodes', e);
    return;
  }
  if (overflow) {
    yield fail('key count', `the walk found more than ${footer + 1n} keys but the footer counts ${footer}; stopped`, reader.limit, 'key count');
    return;
  }
  done?.({ keys, valueBearing: anyValue });
  if (damaged === 0) {
    yield pass('nodes', `${plural(keys, 'key')} walked: every reachable node decodes inside the node data, transitions are sorted, targets point backwards, keys increase`);
  }
  if (stream.unpushed !== undefined) {
    yield warn('outputs', `node @${stream.unpushed} keeps a common part of the values below it that a builder pushes to the edge above: the values may be damaged`, stream.unpushed);
  }
  if (BigInt(keys) === footer) yield pass('key count', `${plural(keys, 'key')}, as the footer says`, reader.limit);
  else {
    yield warn(
      'key count',
      `the footer counts ${footer} keys but the walk found ${keys}${BigInt(keys) < footer ? ' (vellum counts duplicate keys it was given; otherwise the file is damaged)' : ''}`,
      reader.limit,
    );
  }
  yield info('values', anyValue ? 'map: keys carry values' : 'every value is 0: a set, or a map of zeros (the bytes are the same)');
}
