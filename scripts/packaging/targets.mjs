// The VSIX targets Binlens ships and the BLAKE3 addon each carries. The addons are
// @napi-rs/blake-hash's per-platform packages; their integrity is pinned here (read from
// `npm view <pkg>@<ver> dist.integrity`), so a cached or re-fetched tarball is checked offline,
// like a lockfile entry. Where a target has no addon the engine hashes with WebAssembly.

/** @typedef {{ name: string, version: string, integrity: string }} AddonPackage */
/** @typedef {{ format: 'elf' | 'macho' | 'pe', arch: 'x64' | 'arm64', libc?: 'gnu' | 'musl' }} BinaryKind */
/** @typedef {{ target: string, addon: AddonPackage | null, binary: BinaryKind | null }} Target */

/** @type {Target[]} */
export const TARGETS = [
  {
    target: 'linux-x64',
    addon: {
      name: '@napi-rs/blake-hash-linux-x64-gnu',
      version: '1.3.6',
      integrity: 'sha512-13bkj8jaCoQOn8XA8b7QaYCjeiVd4Jgxbp518cnkwD5YU1YS3kw9zZAbSHMJbKbTjP8+kyhgNKAvAV2Dqd5UQw==',
    },
    binary: { format: 'elf', arch: 'x64', libc: 'gnu' },
  },
  {
    target: 'linux-arm64',
    addon: {
      name: '@napi-rs/blake-hash-linux-arm64-gnu',
      version: '1.3.4',
      integrity: 'sha512-7HV+HPtByIleTPyh3idXtzlot9BWzJDrfbzsLgv6TYvfmQS6cXNgXNJkgNRtUt4HrSmQw1e361u2HmXp4ToPIA==',
    },
    binary: { format: 'elf', arch: 'arm64', libc: 'gnu' },
  },
  {
    target: 'alpine-x64',
    addon: {
      name: '@napi-rs/blake-hash-linux-x64-musl',
      version: '1.3.6',
      integrity: 'sha512-lCvBLJ/VAXTM6L0K+8Rpy8gUfx+iJEYpsOXD+BWdpRJGieGcOCavGqUs9fzxAjbVAEUMMeif5mMQLmqheeigww==',
    },
    binary: { format: 'elf', arch: 'x64', libc: 'musl' },
  },
  {
    target: 'darwin-x64',
    addon: {
      name: '@napi-rs/blake-hash-darwin-x64',
      version: '1.3.4',
      integrity: 'sha512-8mDkt9Tt5fpgpXq8KTp3CtFn/emx3bC2M1DWLcTsrLI3NCM+nzaCvrUlO/e7GyebPFIZqQDUGaHJ/QattpQ92g==',
    },
    binary: { format: 'macho', arch: 'x64' },
  },
  {
    target: 'darwin-arm64',
    addon: {
      name: '@napi-rs/blake-hash-darwin-arm64',
      version: '1.3.4',
      integrity: 'sha512-03iiCw/gOJc8sRX5B4RwQE+q+riN9uVqn7VBRT1fUM6Ipi6v4MQQq5rqmk9fNw5IQ2cy3pd2EknwHdDERZLZNg==',
    },
    binary: { format: 'macho', arch: 'arm64' },
  },
  {
    target: 'win32-x64',
    addon: {
      name: '@napi-rs/blake-hash-win32-x64-msvc',
      version: '1.3.4',
      integrity: 'sha512-NR/T+zhX0YdVZaQnTQ6QDQoa8NlFyTY+fp9HqggL/VMWF9Ci8e3Qz8FQk74gJyJp0U768q96wpRre7cA0yGkCA==',
    },
    binary: { format: 'pe', arch: 'x64' },
  },
  {
    target: 'win32-arm64',
    addon: {
      name: '@napi-rs/blake-hash-win32-arm64-msvc',
      version: '1.3.4',
      integrity: 'sha512-Kaj9LBzxWmkKYoHzt7TqXBgWBvZHUduvGcONz5t7UAY4Qj/m7QCCoM5pAh8qY0uNKAK+ZBapg+BANW349QH2mQ==',
    },
    binary: { format: 'pe', arch: 'arm64' },
  },
  // The web extension host runs no native code: BLAKE3 is WebAssembly there.
  { target: 'web', addon: null, binary: null },
];

/** Where a packaged extension carries the addon (src/core/io/nodeCodecs.ts loads it from there). */
export const ADDON_PATH = 'dist/native/blake3.node';

/** The file name of a target's package: the target after '@', as the issue asks. */
export function vsixName(name, version, target) {
  return `${name}-${version}@${target}.vsix`;
}

/** @param {string} target */
export function targetOf(target) {
  const t = TARGETS.find((x) => x.target === target);
  if (!t) throw new Error(`unknown target '${target}'; known: ${TARGETS.map((x) => x.target).join(', ')}`);
  return t;
}
