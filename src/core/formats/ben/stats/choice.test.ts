import { describe, expect, it } from 'vitest';
import { choiceAttributes, electionOf, guessChoice, parseChoice } from './choice.js';

describe('attribute choice', () => {
  it('guesses the total population and the D/R pairs from the usual names', () => {
    const attrs = ['x', 'y', 'VAP', 'HVAP', 'TOTPOP', 'G20PRESD', 'G20PRESR', 'SEN18D', 'SEN18R', 'PRES16_DEM', 'PRES16_REP', 'G16GOVD', 'COUNTYFP'];
    expect(guessChoice(attrs)).toEqual({
      population: 'TOTPOP',
      // G16GOVD has no G16GOVR: not an election
      elections: [
        ['G20PRESD', 'G20PRESR'],
        ['SEN18D', 'SEN18R'],
        ['PRES16_DEM', 'PRES16_REP'],
      ],
    });
  });

  it('prefers a total population over other *POP* and voting-age columns', () => {
    expect(guessChoice(['HISPVAP', 'BLACKPOP', 'POP']).population).toBe('POP');
    expect(guessChoice(['CVAP_POP', 'BLACKPOP']).population).toBe('BLACKPOP');
    expect(guessChoice(['TOTPOP20', 'POP']).population).toBe('TOTPOP20');
    expect(guessChoice(['x', 'y'])).toEqual({ population: undefined, elections: [] });
  });

  it('names an election by what its attributes share, its parties by the rest', () => {
    expect(electionOf(['G20PRESD', 'G20PRESR'])).toEqual({
      name: 'G20PRES',
      parties: [
        { attr: 'G20PRESD', label: 'D' },
        { attr: 'G20PRESR', label: 'R' },
      ],
    });
    expect(electionOf(['PRES16_DEM', 'PRES16_REP', 'PRES16_LIB']).name).toBe('PRES16');
    expect(electionOf(['DEMVOTES', 'GOPVOTES'])).toEqual({
      name: 'DEMVOTES / GOPVOTES',
      parties: [
        { attr: 'DEMVOTES', label: 'DEMVOTES' },
        { attr: 'GOPVOTES', label: 'GOPVOTES' },
      ],
    });
  });

  it('parses a remembered choice, dropping what the graph no longer has', () => {
    const text = JSON.stringify({
      population: 'TOTPOP',
      elections: [
        ['AD', 'AR'],
        ['BD', 'GONE'],
        ['CD', 'CR', 'CL'],
      ],
    });
    expect(parseChoice(text, ['TOTPOP', 'AD', 'AR', 'BD', 'CD', 'CR', 'CL'])).toEqual({
      choice: {
        population: 'TOTPOP',
        elections: [
          ['AD', 'AR'],
          ['CD', 'CR', 'CL'],
        ],
      },
      dropped: ['GONE'],
    });
    expect(parseChoice('{"population":"P"}', []).dropped).toEqual(['P']);
    expect(() => parseChoice('{', [])).toThrow(/not JSON/);
    expect(
      choiceAttributes({
        population: 'P',
        elections: [
          ['A', 'B'],
          ['B', 'C'],
        ],
      }),
    ).toEqual(['P', 'A', 'B', 'C']);
  });
});
