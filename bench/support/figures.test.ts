import { describe, expect, it } from 'vitest';
import { fixed, mark, median, memoryFlatness, percent, percentile, table } from './figures.ts';

describe('benchmark figures', () => {
  it('median: the middle value, the mean of the middle two, ignoring missing figures', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([40, 10, 30, 20])).toBe(25);
    expect(median([5, Number.NaN, 7, 6])).toBe(6);
    expect(median([])).toBeNaN();
  });

  it('mark: at least / at most, limits included, a missing figure never met', () => {
    expect(mark(40, { atLeast: 40 })).toBe('«met»');
    expect(mark(39.9, { atLeast: 40 })).toBe('«not met»');
    expect(mark(15, { atMost: 15 })).toBe('«met»');
    expect(mark(15.1, { atMost: 15 })).toBe('«not met»');
    expect(mark(Number.NaN, { atMost: 15 })).toBe('«not met»');
  });

  it('fixed and percent print a dash when there is no figure', () => {
    expect(fixed(1.256, 1)).toBe('1.3');
    expect(fixed(undefined)).toBe('—');
    expect(percent(1, 8)).toBe('12.5 %');
    expect(percent(1, 0)).toBe('—');
  });

  it('table: first column left-aligned, others right-aligned, header underlined', () => {
    expect(
      table([
        ['target', 'req/s'],
        ['hello', '12000'],
        ['plans', '80'],
      ]),
    ).toBe(['target  req/s', '------  -----', 'hello   12000', 'plans      80'].join('\n'));
    expect(
      table(
        [
          ['a', 'bb'],
          ['ccc', 'd'],
        ],
        2,
      ),
    ).toBe(['a    bb', '---  --', 'ccc  d'].join('\n'));
  });

  it('memoryFlatness: growth from the first sample to the last, marked only over a long enough run', () => {
    const steady = [
      { seconds: 20, mb: 180 },
      { seconds: 160, mb: 190 },
      { seconds: 310, mb: 196 },
    ];
    expect(memoryFlatness(steady, 300)).toEqual({ growth: 16 / 180, mark: '«met»' });
    const leaking = [
      { seconds: 20, mb: 180 },
      { seconds: 310, mb: 240 },
    ];
    expect(memoryFlatness(leaking, 300)).toEqual({ growth: 60 / 180, mark: '«not met»' });
    expect(memoryFlatness(steady.slice(0, 2), 300).mark).toBeUndefined();
    expect(memoryFlatness([{ seconds: 400, mb: 100 }], 300).mark).toBeUndefined();
  });

  it('percentile: nearest rank, ignoring missing figures', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile([7, Number.NaN], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });
});
