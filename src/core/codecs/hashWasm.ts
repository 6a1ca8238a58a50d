/**
 * The hash-wasm hashers Binlens uses, in one module that the hash codecs import dynamically: a
 * static re-export lets the bundler keep only these three (45 KB), where `import('hash-wasm')`
 * would pull in the whole package (250 KB), and the dynamic import keeps them out of a CLI run
 * that hashes nothing.
 */
export { createBLAKE3, createCRC32, createSHA256 } from 'hash-wasm';
