// Compiles the hand-written WebAssembly text files beside this script to the .wasm files the
// codecs import (esbuild inlines them as bytes). Run after editing a .wat:
//   node src/core/codecs/wasm/assemble.mjs
// `wasm.test.ts` fails when a committed .wasm is not the compilation of its .wat.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';

const here = dirname(fileURLToPath(import.meta.url));

/** The .wasm bytes of one .wat file; no names section, so the output depends on the code only. */
export async function assemble(watPath) {
  const wabt = await wabtInit();
  const mod = wabt.parseWat(watPath, readFileSync(watPath, 'utf8'), { bulk_memory: true, simd: true });
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
