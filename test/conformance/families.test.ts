import { describe, expect, it } from 'vitest';
import { handlers } from '../../src/core/registry.js';
import { binlens } from '../helpers/cli.js';
import { claimedExtensions, familiesWithoutFixtures, menuClauses, viewerExtensions } from '../helpers/families.js';

/**
 * Every list of families outside the registry must agree with its handlers, so that adding a
 * format is its folder and one registry line; this test names the list that was forgotten.
 */
const extensions = claimedExtensions(handlers);

describe('family lists agree with the registry', () => {
  it('the viewer opens every extension the handlers claim, and no other', () => {
    expect(viewerExtensions()).toEqual(extensions);
  });

  it('every menu clause that lists extensions lists the handlers’ extensions', () => {
    const clauses = menuClauses();
    expect(clauses.length).toBeGreaterThan(0);
    for (const c of clauses) expect(c.extensions, c.when).toEqual(extensions);
  });

  it('the CLI usage names every extension and format id', async () => {
    const { stdout, code } = await binlens('--help');
    expect(code).toBe(0);
    for (const e of extensions) expect(stdout).toContain(e);
    expect(stdout).toContain(`--as FORMAT   read the file as this format (${handlers.map((h) => h.id).join(', ')})`);
  });

  it('every family has a positive fixture', () => {
    expect(familiesWithoutFixtures(handlers)).toEqual([]);
  });
});
