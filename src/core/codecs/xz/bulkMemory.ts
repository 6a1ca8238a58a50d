/**
 * node-liblzma's WebAssembly build of liblzma carries emscripten's size-optimised memcpy and
 * zero-fill: loops that move one byte per iteration. liblzma copies every decoded byte through it at least once
 * (dictionary to output), and a CPU profile of `npm run bench -- xz-decode` put a quarter of the
 * decoding time there. WebAssembly has had a bulk `memory.copy` instruction for years (every
 * engine the extension runs on), so before the module is compiled this replaces that function's
 * body with one that uses it (DESIGN.md, Performance). The zero-fill clears the encoder's match
 * finder tables (tens of MB at presets 6 and 7) on every `lzma_easy_encoder`: 3 s of a 12 s
 * fuzz profile of small BEN → XBEN conversions; `memory.fill` does it in one instruction.
 *
 * The replacement keeps the byte loop's exact result even for overlapping ranges (memcpy's
 * undefined case): wide copies are used only when the destination does not start inside the
 * source, where a forward byte copy and a memmove agree. Only a body equal byte for byte to the
 * known loop is replaced; a different build is left as it is.
 */

const hex = (s: string) => Uint8Array.from(s.match(/../g)!, (h) => parseInt(h, 16));

/** `(func (param i32 i32 i32) (result i32) (local i32) …)`: the forward byte-copy loop, returning the destination. */
const BYTE_LOOP = hex('01017f20020440200021030340200320012d00003a0000200341016a2103200141016a2101200241016b22020d000b0b20000b');
/**
 * When (dst - src) >=u n (no overlap, or dst before src, where any forward copy is right):
 * `memory.copy` from 64 bytes (it is a call into the engine, slower for the short copies most
 * matches make), 8 bytes a step below that; then, and for overlapping ranges, the same byte
 * loop. Returns dst. Source: the comment in DESIGN.md, Performance, has the text format.
 */
const BULK = hex(
  '01017f20002103200020016b20024f0440200241c0004f0440200020012002fc0a000020000f0b0240034020024108490d0120032001290300370300200341086a2103200141086a2101200241086b21020c000b0b0b200204400340200320012d00003a0000200341016a2103200141016a2101200241016b22020d000b0b20000b',
);

/** `(func (param i32 i32) (result i32) (local i32) …)`: zero n bytes at dst one at a time, returning dst. */
const ZERO_LOOP = hex('01017f20010440200021020340200241003a0000200241016a2102200141016b22010d000b0b20000b');
/** From 64 bytes `memory.fill` (dst, 0, n), below that the same byte loop. Returns dst. */
const ZERO_FILL = hex('01017f200141c0004f0440200041002001fc0b0020000f0b20010440200021020340200241003a0000200241016a2102200141016b22010d000b0b20000b');

const REPLACEMENTS: [loop: Uint8Array, bulk: Uint8Array][] = [
  [BYTE_LOOP, BULK],
  [ZERO_LOOP, ZERO_FILL],
];

const CODE_SECTION = 10;

function readLeb(b: Uint8Array, p: number): [value: number, next: number] {
  let value = 0;
  let shift = 0;
  let byte: number;
  do {
    if (p >= b.length || shift > 28) throw new Error('bad LEB128 in the WebAssembly module');
    byte = b[p++]!;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, p];
}

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The module with every byte-loop memcpy and zero-fill replaced, and how many were; the input itself when none. */
export function withBulkMemory(wasm: Uint8Array): { bytes: Uint8Array; replaced: number } {
  let p = 8; // magic and version
  while (p < wasm.length) {
    const id = wasm[p]!;
    const [size, start] = readLeb(wasm, p + 1);
    const end = start + size;
    if (id !== CODE_SECTION) {
      p = end;
      continue;
    }
    const [count, first] = readLeb(wasm, start);
    const bodies: Uint8Array[] = [];
    let replaced = 0;
    for (let i = 0, q = first; i < count; i++) {
      const [length, at] = readLeb(wasm, q);
      const body = wasm.subarray(at, at + length);
      const bulk = REPLACEMENTS.find(([loop]) => equal(body, loop))?.[1];
      bodies.push(bulk ?? body);
      if (bulk) replaced++;
      q = at + length;
    }
    if (replaced === 0) return { bytes: wasm, replaced };
    const content: number[] = leb(count);
    let contentLength = content.length;
    const sized = bodies.map((b) => {
      const prefix = leb(b.length);
      contentLength += prefix.length + b.length;
      return prefix;
    });
    const header = [CODE_SECTION, ...leb(contentLength)];
    const out = new Uint8Array(p + header.length + contentLength + (wasm.length - end));
    out.set(wasm.subarray(0, p), 0);
    let o = p;
    out.set(header, o);
    o += header.length;
    out.set(content, o);
    o += content.length;
    bodies.forEach((b, i) => {
      out.set(sized[i]!, o);
      o += sized[i]!.length;
      out.set(b, o);
      o += b.length;
    });
    out.set(wasm.subarray(end), o);
    return { bytes: out, replaced };
  }
  return { bytes: wasm, replaced: 0 };
}
