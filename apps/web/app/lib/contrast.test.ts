import { describe, expect, it } from 'vitest';
import { contrastRatio, readableOn, textContrast } from './contrast.ts';

describe('contrastRatio (WCAG relative luminance)', () => {
  it('black on white is 21:1 and a colour on itself 1:1', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#123456', '#123456')).toBeCloseTo(1, 5);
  });
  it('reads #rgb and #rrggbb alike, case and spaces aside', () => {
    expect(contrastRatio('#F00', ' #ffffff ')).toBeCloseTo(contrastRatio('#ff0000', '#FFFFFF') ?? 0, 10);
  });
  it('cannot check anything else', () => {
    expect(contrastRatio('red', '#ffffff')).toBeNull();
    expect(contrastRatio('#ffffff', 'rgb(0,0,0)')).toBeNull();
    expect(contrastRatio('#12345', '#ffffff')).toBeNull();
  });
});

describe('readableOn', () => {
  it('keeps a colour that already reads well', () => {
    expect(readableOn('#1e3a8a', '#ffffff')).toBe('#1e3a8a');
  });
  it('darkens a faint colour on white just enough to reach 4.5:1', () => {
    const fixed = readableOn('#ffd966', '#ffffff');
    expect(fixed).not.toBe('#ffd966');
    expect(fixed).toMatch(/^#[0-9a-f]{6}$/);
    expect(contrastRatio(fixed, '#ffffff')).toBeGreaterThanOrEqual(textContrast);
  });
  it('lightens a faint colour on a dark background', () => {
    const fixed = readableOn('#333333', '#000000');
    expect(contrastRatio(fixed, '#000000')).toBeGreaterThanOrEqual(textContrast);
    expect(contrastRatio(fixed, '#ffffff')).toBeLessThan(contrastRatio('#333333', '#ffffff') ?? 0);
  });
  it('honours a custom minimum', () => {
    const fixed = readableOn('#999999', '#ffffff', 7);
    expect(contrastRatio(fixed, '#ffffff')).toBeGreaterThanOrEqual(7);
  });
  it('leaves colours it cannot read as they are', () => {
    expect(readableOn('tomato', '#ffffff')).toBe('tomato');
    expect(readableOn('#ffd966', 'transparent')).toBe('#ffd966');
  });
});
