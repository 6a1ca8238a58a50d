/**
 * Every positive ben fixture and its ground-truth JSONL (ben/MANIFEST.md, independent/README.md,
 * spec-derived/README.md): the streams the reference decoder printed, and the bundles.
 */
export const BEN_STREAMS: readonly (readonly [string, string])[] = [
  ...['standard.ben', 'mkv_chain.ben', 'standard.xben', 'mkv_chain.xben'].flatMap((x) => [
    [`ben/v1_source.${x}`, 'ben/v1_source.jsonl'] as const,
    [`ben/grid4x4_chain.${x}`, 'ben/grid4x4_chain.jsonl'] as const,
  ]),
  ['ben/edge_small_example.mkv_chain.ben', 'ben/edge_small_example.jsonl'],
  ['ben/edge_small_example.standard.ben', 'ben/edge_small_example.jsonl'],
  ['ben/edge_small_example.mkv_chain.xben', 'ben/edge_small_example.jsonl'],
  ['ben/negative/payload_bitflip.standard.ben', 'ben/negative/payload_bitflip.standard.jsonl'],
  ['ben/independent/twodelta.ben', 'ben/independent/source_twodelta.jsonl'],
  ['ben/independent/twodelta.xben', 'ben/independent/source_twodelta.jsonl'],
];

export const BEN_BUNDLES: readonly (readonly [string, string])[] = [
  ['ben/independent/flags_set.bendl', 'ben/independent/source.jsonl'],
  ['ben/spec-derived/spec_example_finalized.bendl', 'ben/spec-derived/v1_source.jsonl'],
  ['ben/spec-derived/spec_example_unfinalized.bendl', 'ben/spec-derived/v1_source.jsonl'],
];
