import { describe, expect, it } from 'vitest';
import { efficiencyGap, meanMedian, populationBalance, seatsWon, winnerOf } from './partisan.js';

/**
 * A 4-district example worked by hand:
 *   district   A    B   total  winner  wasted A        wasted B        A's share
 *   1          70   30  100    A       70 − 50 = 20    30              0.70
 *   2          60   40  100    A       60 − 50 = 10    40              0.60
 *   3          20   80  100    B       20              80 − 50 = 30    0.20
 *   4          45   55  100    B       45              55 − 50 = 5     0.45
 *   wasted A = 95, wasted B = 105, votes 400: efficiency gap = (105 − 95) / 400 = 0.025 (favours A)
 *   shares sorted 0.20 0.45 0.60 0.70: median 0.525, mean 1.95 / 4 = 0.4875, mean-median = 0.0375
 */
const A = [70, 60, 20, 45];
const B = [30, 40, 80, 55];

describe('plan-level figures', () => {
  it('efficiency gap of the hand-worked 4-district example', () => {
    expect(efficiencyGap(A, B)).toBeCloseTo(0.025, 12);
    // from B's side the sign turns
    expect(efficiencyGap(B, A)).toBeCloseTo(-0.025, 12);
  });

  it('mean-median of the hand-worked 4-district example', () => {
    expect(meanMedian(A, B)).toBeCloseTo(0.0375, 12);
    // an odd count takes the middle share: shares 0.7 0.6 0.2 → median 0.6, mean 0.5
    expect(meanMedian([70, 60, 20], [30, 40, 80])).toBeCloseTo(0.1, 12);
  });

  it('winners and seats, a tie split between the tied parties', () => {
    expect(A.map((a, d) => winnerOf([a, B[d]!]))).toEqual([0, 0, 1, 1]);
    expect(seatsWon([A, B])).toEqual([2, 2]);
    // district 2 tied 50–50: no winner, half a seat each; the tie wastes half of each side (25 + 25)
    expect(winnerOf([50, 50])).toBeNull();
    expect(
      seatsWon([
        [70, 50],
        [30, 50],
      ]),
    ).toEqual([1.5, 0.5]);
    // wasted A = 20 + 25, wasted B = 30 + 25, votes 200 → (55 − 45) / 200
    expect(efficiencyGap([70, 50], [30, 50])).toBeCloseTo(0.05, 12);
    // three parties: the plurality wins
    expect(winnerOf([30, 45, 25])).toBe(1);
    expect(
      seatsWon([
        [30, 10],
        [45, 10],
        [25, 80],
      ]),
    ).toEqual([0, 1, 1]);
  });

  it('districts without votes: no winner, no seat, left out of the shares', () => {
    expect(winnerOf([0, 0])).toBeNull();
    expect(
      seatsWon([
        [0, 60],
        [0, 40],
      ]),
    ).toEqual([1, 0]);
    expect(meanMedian([0, 60], [0, 40])).toBe(0);
    expect(efficiencyGap([0], [0])).toBeNull();
    expect(meanMedian([], [])).toBeNull();
  });

  it('population balance: ideal, signed deviations, the largest one', () => {
    // 400 people in 4 districts: ideal 100; 98 and 102 deviate by −2 % and +2 %
    const b = populationBalance([98, 102, 100, 100]);
    expect(b.ideal).toBe(100);
    expect(b.deviations).toEqual([-0.02, 0.02, 0, 0]);
    expect(b.maxAbs).toBe(0.02);
    expect(populationBalance([0, 0]).deviations).toEqual([0, 0]);
  });
});
