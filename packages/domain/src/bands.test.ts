import { describe, expect, it } from 'vitest';
import { ageOn, bandOf, checkBands, fitsBand } from './bands.ts';
import { oldestAge, PassengerType, passengerBands } from './ids.ts';

describe('age bands', () => {
  it('the age on a day counts full years; born on 29 February one is older from 1 March', () => {
    expect(ageOn('2000-06-15', '2030-06-14')).toBe(29);
    expect(ageOn('2000-06-15', '2030-06-15')).toBe(30);
    expect(ageOn('2004-02-29', '2030-02-28')).toBe(25);
    expect(ageOn('2004-02-29', '2030-03-01')).toBe(26);
  });

  it('a traveller beyond the seats quoted for its band, or in no band, is a mismatch', () => {
    const bands = passengerBands.slice(0, 2);
    const quoted = [{ passengerTypeId: PassengerType.upTo74, quantity: 1 }];
    const check = checkBands(
      [{ birthDate: '1990-01-01' }, { birthDate: '1995-01-01' }, { birthDate: '1900-01-01' }],
      '2030-01-01',
      bands,
      quoted,
    );
    const { upTo74 } = PassengerType;
    expect(check.bands.map((band) => band?.id)).toStrictEqual([upTo74, upTo74, undefined]);
    expect(check.mismatched).toStrictEqual([1, 2]);
  });

  it('fitsBand: the age on the departure date is within the band, both ends included', () => {
    const senior = { ageFrom: 75, ageTo: 84 };
    expect(fitsBand('1955-01-01', senior, '2030-01-01')).toBe(true);
    expect(fitsBand('1955-01-02', senior, '2030-01-01')).toBe(false);
    expect(fitsBand('1945-01-02', senior, '2030-01-01')).toBe(true);
    expect(fitsBand('1945-01-01', senior, '2030-01-01')).toBe(false);
  });

  it('bandOf: the youngest band first when bands overlap, none for an age outside every band', () => {
    const bands = [...passengerBands].reverse();
    expect(bandOf(0, bands)?.id).toBe(PassengerType.upTo74);
    expect(bandOf(84, bands)?.id).toBe(PassengerType.from75To84);
    expect(bandOf(oldestAge + 1, bands)).toBeUndefined();
  });
});
