import { readdirSync } from 'node:fs';
import { fixture, readJson } from './fixtures.js';

/**
 * The decoded ground truth of the ML.NET fixtures (fixtures/idv/groundtruth, HANDCHECKED files
 * aside), each as its file name and its JSON: `<folder>--<name>.json` describes `idv/<folder>/<name>.idv`.
 */
export function groundTruths<Truth>(): (readonly [truthFile: string, truth: Truth])[] {
  return readdirSync(fixture('idv/groundtruth'))
    .filter((f) => !f.startsWith('HANDCHECKED'))
    .map((f) => [f, readJson<Truth>(`idv/groundtruth/${f}`)] as const);
}

/** The fixture a ground-truth file describes. */
export function fixtureOf(truthFile: string): string {
  const [folder, name] = truthFile.replace(/\.json$/, '').split('--');
  return `idv/${folder}/${name}.idv`;
}
