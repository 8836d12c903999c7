import { describe, expect, it } from 'vitest';
import { fromChileanDate, toChileanDate } from './dates.ts';
import { formatDay } from './format.ts';

describe('toChileanDate / formatDay: ISO → dd-mm-aaaa', () => {
  it('turns an ISO day around', () => {
    expect(toChileanDate('2027-03-09')).toBe('09-03-2027');
    expect(formatDay('2027-03-09')).toBe('09-03-2027');
    expect(formatDay('2027-03-09T10:00:00Z')).toBe('09-03-2027');
  });
  it('leaves what is not an ISO day as it came', () => {
    expect(toChileanDate('')).toBe('');
    expect(toChileanDate('mañana')).toBe('mañana');
    expect(formatDay('09/03/2027')).toBe('09/03/2027');
  });
});

describe('fromChileanDate: what a visitor types → ISO or null', () => {
  it.each([
    ['09-03-2027', '2027-03-09'],
    ['9/3/2027', '2027-03-09'],
    [' 29-02-2028 ', '2028-02-29'],
    ['31/12/2026', '2026-12-31'],
  ])('%s → %s', (text, iso) => {
    expect(fromChileanDate(text)).toBe(iso);
  });
  it.each(['29-02-2027', '31-04-2027', '00-01-2027', '01-13-2027', '2027-03-09', '9-3-27', '', 'hoy'])(
    '%s is not a calendar date',
    (text) => {
      expect(fromChileanDate(text)).toBeNull();
    },
  );
  it('round-trips with toChileanDate', () => {
    expect(fromChileanDate(toChileanDate('2030-01-31'))).toBe('2030-01-31');
  });
});
