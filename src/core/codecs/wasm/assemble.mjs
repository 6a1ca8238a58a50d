// Compiles the hand-written WebAssembly text files beside this script to the .wasm files the
// codecs import (esbuild inlines them as bytes). Run after editing a .wat:
//   node src/core/codecs/wasm/assemble.mjs
// `wasm.test.ts` fails when a committed .wasm is not the compilation of its .wat. A module too
// long for one file keeps its parts in a folder of its name (fstwalk/), each joined in where a
// line `;; @include fstwalk/part.wat` of the module stands: one module, so calls between the parts
// stay direct calls.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';

const here = dirname(fileURLToPath(import.meta.url));

const INCLUDE = /^[ \t]*;; @include (\S+\.wat)[ \t]*$/m;

/** The text of the .wat file at watPath with its `;; @include` lines replaced by the parts they name (relative to it). */
export function joinWat(watPath) {
  return readFileSync(watPath, 'utf8').replace(new RegExp(INCLUDE, 'gm'), (_, part) => {
    const text = readFileSync(join(dirname(watPath), part), 'utf8').replace(/\n$/, '');
    if (INCLUDE.test(text)) throw new Error(`${part}: a part includes no other (one level keeps the order plain)`);
    return text;
  });
}

/** The .wasm bytes of one .wat file; no names section, so the output depends on the code only. */
export async function assemble(watPath) {
  const wabt = await wabtInit();
  const mod = wabt.parseWat(watPath, joinWat(watPath), { bulk_memory: true, simd: true });
  try {
    mod.validate();
    return Uint8Array.from(mod.toBinary({ canonicalize_lebs: true, write_debug_names: false }).buffer);
  } finally {
    mod.destroy();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const f of readdirSync(here).filter((n) => n.endsWith('.wat'))) {
    const bytes = await assemble(join(here, f));
    writeFileSync(join(here, f.replace(/\.wat$/, '.wasm')), bytes);
    console.log(`${f} → ${bytes.length} bytes`);
  }
}
