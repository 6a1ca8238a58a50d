import { fail, failFrom, info, pass, plural, warn } from '../../describe.js';
import { FormatError, rethrowUnlessFormatError, throwIfAborted } from '../../errors.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { Check, TaskContext } from '../../model.js';
import { NODES_START } from './header.js';
import { FstNode, corrupt, u64 } from './node.js';
import type { FstReader } from './reader.js';

/**
 * Deep verify (spec fst.md §9) in time proportional to the node data, not to the keys: a file
 * of a few hundred bytes can encode 2^40 keys (paths double at every node), and damage can
 * make it claim as many, so walking keys could run for ever.
 *
 * Builders write nodes bottom-up, back to back, the root last. So three passes over the nodes
 * prove what the format promises: (1) from the last node down to offset 16, each node decodes,
 * ends where the next one starts, keeps its transitions in strictly increasing input order
 * (so keys come out strictly increasing), agrees with its v2/v3 index, and pushes the common
 * part of its values up as builders do; (2) from the bottom up, every target is the start of a
 * lower node, and the number of keys below each node is counted (final + the counts of its
 * targets), which gives the key count to compare with the footer; (3) from the root down, which
 * nodes are reachable. Memory is 17 bytes per node.
 */
const MAX_FINDINGS = 20;
/** Key counts are exact up to 2^53; past it they are reported as "more than". */
const EXACT = Number.MAX_SAFE_INTEGER;

export interface WalkResult {
  readonly keys: number;
  readonly valueBearing: boolean;
}

/** A growable list of node addresses (8 bytes each, exact up to 2^53). */
class Addresses {
  private data = new Float64Array(1024);
  length = 0;
  push(a: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = a;
  }
  /** Ascending order (the chain is collected from the top down). */
  ascending(): Float64Array {
    return this.data.subarray(0, this.length).reverse();
  }
}

function indexOf(sorted: Float64Array, addr: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v === addr) return mid;
    if (v < addr) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export async function* deepVerify(reader: FstReader, ctx: TaskContext, done?: (r: WalkResult) => void): AsyncIterable<Check> {
  const findings = new Findings();
  // Only every 4096th node pauses: an await per node cost more than decoding it (small files verified by the thousand).
  const slice = (i: number): Promise<void> | undefined => {
    if ((i & 4095) !== 4095) return undefined;
    throwIfAborted(ctx.signal);
    return yieldToEventLoop();
  };
  const chain = await nodeChain(reader, ctx, findings, slice);
  const keys = await keysBelow(reader, chain, findings, slice);
  const { total, unreachable } = await reachable(reader, chain.nodes, keys, findings, slice);

  yield* findings.list;
  const counted = total > EXACT ? `more than ${EXACT}` : String(total);
  if (findings.list.length === 0) {
    yield pass(
      'nodes',
      `${plural(chain.nodes.length, 'node')} checked: each decodes inside the node data, transitions are sorted, targets are lower nodes, ${counted} keys`,
    );
  }
  if (unreachable > 0) yield warn('nodes', `${plural(unreachable, 'node')} cannot be reached from the root: builders leave none`, reader.limit);
  if (chain.unpushed !== undefined) {
    yield warn(
      'outputs',
      `node @${chain.unpushed} keeps a common part of the values below it that a builder pushes to the edge above: the values may be damaged`,
      chain.unpushed,
    );
  }
  yield keyCountCheck(reader, total, counted);
  yield info('values', chain.valueBearing ? 'map: keys carry values' : 'every value is 0: a set, or a map of zeros (the bytes are the same)');
  done?.({ keys: Math.min(total, EXACT), valueBearing: chain.valueBearing });
}

/** The failures the passes found: the first MAX_FINDINGS node errors, and what the root and footer say. */
class Findings {
  readonly list: Check[] = [];
  /** Keeps a node's FormatError (a cancel goes through). */
  node(e: unknown): void {
    rethrowUnlessFormatError(e, 'cancelled');
    if (this.list.length < MAX_FINDINGS) this.list.push(failFrom('nodes', e));
  }
}

type Slice = (i: number) => Promise<void> | undefined;

/**
 * The node at `addr` decoded into `into` when its window is loaded, else undefined (`reader.node`
 * loads it): a pass over cached windows then waits for no promise and makes no node per step.
 */
function loadedNode(reader: FstReader, addr: number, into: FstNode): FstNode | undefined {
  const w = reader.windowFor(addr);
  return w === undefined ? undefined : into.decode(w, addr, reader.version);
}

interface NodeChain {
  /** Node addresses (their last byte), ascending. */
  readonly nodes: Float64Array;
  /** Where the chain broke: nodes at or below it could not be located, targets there are not checked (-1: whole). */
  readonly brokenAt: number;
  readonly valueBearing: boolean;
  /** The first node that keeps a common part of its values (undefined: none). */
  readonly unpushed: number | undefined;
}

/** Pass 1: the chain of nodes from the last one down to offset 16. */
async function nodeChain(reader: FstReader, ctx: TaskContext, findings: Findings, slice: Slice): Promise<NodeChain> {
  const chain = new Addresses();
  let unpushed: number | undefined;
  let valueBearing = false;
  let at = reader.limit - 1;
  let brokenAt = -1;
  const scratch = new FstNode();
  for (let i = 0; at >= NODES_START; i++) {
    let node: FstNode;
    try {
      node = loadedNode(reader, at, scratch) ?? (await reader.node(at));
      checkNode(node, at === reader.root);
    } catch (e) {
      rethrowUnlessFormatError(e, 'cancelled');
      findings.node(new FormatError(e.code, `${e.detail}; the node data below it cannot be walked`, { offset: e.offset, field: e.field }));
      brokenAt = at;
      break;
    }
    if (node.osize > 0 && !valueBearing) valueBearing = hasOutput(node);
    if (at !== reader.root && unpushed === undefined && !pushedUp(node)) unpushed = at;
    chain.push(at);
    at = node.start - 1;
    const paused = slice(i);
    if (paused) await paused;
    if (i % 65536 === 0) ctx.progress?.({ done: reader.limit - at, total: reader.limit, message: 'checking nodes' });
  }
  return { nodes: chain.ascending(), brokenAt, valueBearing, unpushed };
}

/** Pass 2: targets are node starts below; the keys below each node (capped past 2^53). */
async function keysBelow(reader: FstReader, { nodes, brokenAt }: NodeChain, findings: Findings, slice: Slice): Promise<Float64Array> {
  const keys = new Float64Array(nodes.length);
  const scratch = new FstNode();
  for (let i = 0; i < nodes.length; i++) {
    const node = loadedNode(reader, nodes[i]!, scratch) ?? (await reader.node(nodes[i]!));
    let count = node.isFinal ? 1 : 0;
    for (let t = 0; t < node.ntrans; t++) {
      try {
        const target = node.target(t);
        if (target === 0) count += 1;
        else {
          const j = indexOf(nodes, target);
          if (j >= 0) count += keys[j]!;
          else if (target > brokenAt) throw corrupt(node.addr, `transition ${t} points to ${target}, which is not the last byte of a node`);
        }
      } catch (e) {
        findings.node(e);
      }
    }
    keys[i] = Math.min(count, EXACT + 1);
    const paused = slice(i);
    if (paused) await paused;
  }
  return keys;
}

/** Pass 3: reachability from the root; the keys the root holds and the nodes it cannot reach. */
async function reachable(
  reader: FstReader,
  nodes: Float64Array,
  keys: Float64Array,
  findings: Findings,
  slice: Slice,
): Promise<{ total: number; unreachable: number }> {
  if (reader.root === 0) return { total: 1, unreachable: 0 };
  const root = indexOf(nodes, reader.root);
  if (root < 0) {
    findings.list.push(fail('root address', `the root address ${reader.root} is not the last byte of a node`, reader.limit + 8, 'root address'));
    return { total: 0, unreachable: 0 };
  }
  let unreachable = 0;
  const reached = new Uint8Array(nodes.length);
  reached[root] = 1;
  const scratch = new FstNode();
  for (let i = root; i >= 0; i--) {
    if (!reached[i]) {
      unreachable++;
      continue;
    }
    const node = loadedNode(reader, nodes[i]!, scratch) ?? (await reader.node(nodes[i]!));
    for (let t = 0; t < node.ntrans; t++) {
      try {
        const j = indexOf(nodes, node.target(t));
        if (j >= 0) reached[j] = 1;
      } catch {
        // Reported in pass 2.
      }
    }
    const paused = slice(i);
    if (paused) await paused;
  }
  return { total: keys[root]!, unreachable: unreachable + nodes.length - 1 - root };
}

/** The key count the nodes hold against the footer's. */
function keyCountCheck(reader: FstReader, total: number, counted: string): Check {
  const footer = reader.keyCount;
  if (total <= EXACT && BigInt(total) === footer) return pass('key count', `${plural(total, 'key')}, as the footer says`, reader.limit);
  if (total > EXACT || BigInt(total) > footer)
    return fail('key count', `the nodes hold ${counted} keys but the footer counts ${footer}`, reader.limit, 'key count');
  return warn(
    'key count',
    `the footer counts ${footer} keys but the nodes hold ${counted} (vellum counts duplicate keys it was given; otherwise the file is damaged)`,
    reader.limit,
  );
}

/** Rules a builder never breaks but a decoder does not need. */
function checkNode(node: FstNode, isRoot: boolean): void {
  if (node.ntrans === 0 && !node.isFinal && !isRoot) throw corrupt(node.addr, 'a non-final node without transitions: no key can end below it');
  if (node.indexAt < 0) return;
  const seen = new Int16Array(256).fill(-1);
  for (let i = 0; i < node.ntrans; i++) seen[node.input(i)] = i;
  for (let b = 0; b < 256; b++) {
    const stored = node.indexEntry(b);
    const want = seen[b]!;
    if (want >= 0 ? stored !== want : stored < node.ntrans) {
      throw corrupt(node.addr, `index entry for byte 0x${b.toString(16)} is ${stored}, the transitions say ${want < 0 ? 'none' : want}`, node.indexAt + b);
    }
  }
}

function hasOutput(node: FstNode): boolean {
  if (node.isFinal && (node.finalHi !== 0 || node.finalLo !== 0)) return true;
  for (let i = 0; i < node.ntrans; i++) {
    node.output(i);
    if (u64.hi !== 0 || u64.lo !== 0) return true;
  }
  return false;
}

/**
 * Builders push the common part of the values below a node into the edge above it, so below the
 * root the smallest output of a node (final output included) is 0.
 */
function pushedUp(node: FstNode): boolean {
  if (node.osize === 0) return true;
  if (node.isFinal && node.finalHi === 0 && node.finalLo === 0) return true;
  for (let i = 0; i < node.ntrans; i++) {
    node.output(i);
    if (u64.hi === 0 && u64.lo === 0) return true;
  }
  return false;
}
