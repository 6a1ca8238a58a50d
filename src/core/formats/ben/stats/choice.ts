import { FormatError } from '../../../errors.js';

/**
 * Which node attributes a district table reads: the population, and elections as lists of vote
 * attributes (a D/R pair, or more parties). Guessed from the names samplers and the redistricting
 * data hubs use (TOTPOP, G20PRESD / G20PRESR, SEN18D / SEN18R, PRES16_DEM / PRES16_REP), and
 * changeable by the user: the choice travels as JSON text in a panel parameter.
 */
export interface AttributeChoice {
  readonly population?: string;
  readonly elections: readonly (readonly string[])[];
}

export interface Election {
  readonly name: string;
  /** The vote attributes, and each one's label: the name's part after what they share. */
  readonly parties: readonly { readonly attr: string; readonly label: string }[];
}

/** Population names by preference: the total first, voting-age counts last (they are not who districts balance). */
const POPULATION: readonly RegExp[] = [/^TOT_?POP$/i, /^TOT_?POP/i, /^(POP|POPULATION)$/i, /^(?!.*VAP).*POP/i, /POP/i];

/** A Democratic vote column and its Republican twin share everything but the party mark at the end. */
const DEM = /^(.+?)(D|DEM)$/i;
const REP_OF = (prefix: string, mark: string) => (mark.length === 1 ? [`${prefix}R`, `${prefix}r`] : [`${prefix}REP`, `${prefix}Rep`, `${prefix}rep`]);

export function guessChoice(attributes: readonly string[]): AttributeChoice {
  const population = POPULATION.map((re) => attributes.find((a) => re.test(a))).find((a) => a !== undefined);
  const has = new Set(attributes);
  const elections: string[][] = [];
  for (const a of attributes) {
    const m = DEM.exec(a);
    if (!m || a === population) continue;
    const rep = REP_OF(m[1]!, m[2]!).find((r) => has.has(r) && r !== a);
    if (rep) elections.push([a, rep]);
  }
  return { population, elections };
}

/** An election's name is what its attributes share at the start (G20PRES), its parties the rest (D, R). */
export function electionOf(attrs: readonly string[]): Election {
  let prefix = attrs[0] ?? '';
  for (const a of attrs) while (!a.startsWith(prefix)) prefix = prefix.slice(0, -1);
  // A prefix that leaves a party nothing (G20PRESD twice) names nothing: then the attributes are the labels.
  const cut = attrs.every((a) => a.length > prefix.length) ? prefix.length : 0;
  const name = cut ? prefix.replace(/[_\s-]+$/, '') || prefix : attrs.join(' / ');
  return { name, parties: attrs.map((attr) => ({ attr, label: attr.slice(cut) })) };
}

/**
 * The choice as the panel parameter holds it (JSON text), kept to what `available` offers:
 * attributes the graph lacks are dropped and named in `dropped` (a choice remembered for a graph
 * that has since changed), as are elections left with fewer than two parties.
 */
export function parseChoice(text: string, available: readonly string[]): { choice: AttributeChoice; dropped: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new FormatError('bad-input', 'the attribute choice is not JSON', { field: 'attributes' });
  }
  const o = (typeof raw === 'object' && raw !== null ? raw : {}) as { population?: unknown; elections?: unknown };
  const has = new Set(available);
  const dropped: string[] = [];
  const keep = (a: unknown): a is string => {
    if (typeof a === 'string' && has.has(a)) return true;
    dropped.push(String(a));
    return false;
  };
  const population = o.population === undefined || o.population === null || o.population === '' ? undefined : keep(o.population) ? o.population : undefined;
  const elections = (Array.isArray(o.elections) ? o.elections : []).map((e) => (Array.isArray(e) ? e.filter(keep) : [])).filter((e) => e.length >= 2);
  return { choice: { population, elections }, dropped };
}

/** Every attribute the choice reads, each once: what the statistics graph must carry. */
export function choiceAttributes(c: AttributeChoice): string[] {
  return [...new Set([...(c.population ? [c.population] : []), ...c.elections.flat()])];
}
