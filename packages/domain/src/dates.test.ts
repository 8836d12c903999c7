import { describe, expect, it } from 'vitest';
import {
  addDays,
  chileDateOf,
  chileDayStart,
  chileWallTimeOf,
  chileWallTimeToInstant,
  fixedReturnDate,
  parseIsoDate,
  todayInChile,
  tripDays,
  validateTripDates,
} from './dates.ts';

const singleTrip = { returnDateEnabled: true, returnAddDays: 7, minDays: 1, maxDays: 180 };
const annual = { returnDateEnabled: false, returnAddDays: 364, minDays: 365, maxDays: 365 };
const longStay = { returnDateEnabled: true, returnAddDays: 90, minDays: 61, maxDays: 365 };
const today = '2026-11-22';

describe('trip dates', () => {
  it.each([
    ['2026-12-01', '2026-12-01', 1],
    ['2026-12-01', '2026-12-10', 10],
    ['2026-12-25', '2027-01-05', 12], // across the new year
    ['2028-02-28', '2028-03-01', 3], // leap year: 28, 29, 1
    ['2026-04-04', '2026-04-06', 3], // Chile's daylight-saving change does not move days
  ])('a trip from %s to %s lasts %i days', (from, to, days) => {
    expect(tripDays(from, to)).toBe(days);
  });

  it('rejects dates that do not exist', () => {
    expect(parseIsoDate('2026-02-30')).toBeNull();
    expect(parseIsoDate('2026-13-01')).toBeNull();
    expect(parseIsoDate('01-12-2026')).toBeNull();
    expect(parseIsoDate('2026-02-28')).not.toBeNull();
  });

  it('adds days across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-11-22', 364)).toBe('2027-11-21');
  });

  it('fixes the annual return at departure + 364 (a 365-day term) and leaves single trips free', () => {
    expect(fixedReturnDate('2026-12-01', annual)).toBe('2027-11-30');
    expect(tripDays('2026-12-01', '2027-11-30')).toBe(365);
    expect(fixedReturnDate('2026-12-01', singleTrip)).toBeNull();
  });

  it("knows Chile's calendar day, which is behind UTC late in the evening", () => {
    // 02:30 UTC on 23 Nov is 23:30 on 22 Nov in Santiago (UTC−3 in summer)
    expect(todayInChile(new Date('2026-11-23T02:30:00Z'))).toBe('2026-11-22');
  });

  it('dates an instant as Chile saw it: a purchase paid at 23:30 in Santiago prints that day, not the UTC one', () => {
    expect(chileDateOf('2026-11-28T02:30:00.000Z')).toBe('2026-11-27');
    expect(chileDateOf('2026-11-28T03:00:00.000Z')).toBe('2026-11-28');
    expect(chileDateOf(new Date('2026-07-01T03:59:59.999Z'))).toBe('2026-06-30');
  });

  it('turns the day at midnight in Santiago to the millisecond, however it is asked (a remembered day is per minute)', () => {
    // Midnight of 23 Nov in Santiago (UTC−3) is 03:00 UTC; asked in order, backwards and again.
    const instants = ['2026-11-23T02:59:00.000Z', '2026-11-23T02:59:59.999Z', '2026-11-23T03:00:00.000Z'];
    const expected = ['2026-11-22', '2026-11-22', '2026-11-23'];
    for (const order of [
      [0, 1, 2],
      [2, 1, 0],
      [1, 2, 1, 0, 2],
    ]) {
      for (const index of order) expect(todayInChile(new Date(instants[index] as string))).toBe(expected[index]);
    }
    // Winter time (UTC−4): midnight of 1 Jul is 04:00 UTC.
    expect(todayInChile(new Date('2026-07-01T03:59:59.999Z'))).toBe('2026-06-30');
    expect(todayInChile(new Date('2026-07-01T04:00:00.000Z'))).toBe('2026-07-01');
    expect(() => todayInChile(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('validateTripDates', () => {
  it('accepts a valid single trip', () => {
    expect(validateTripDates({ departureDate: '2026-12-01', returnDate: '2026-12-10', today }, singleTrip)).toEqual([]);
  });

  it('accepts a trip leaving today', () => {
    expect(validateTripDates({ departureDate: today, returnDate: today, today }, singleTrip)).toEqual([]);
  });

  it('rejects dates that are not calendar days', () => {
    expect(validateTripDates({ departureDate: '2026-02-30', returnDate: '01-12-2026', today }, singleTrip)).toEqual([
      { field: 'departureDate', code: 'invalid_date', message: 'Fecha inválida' },
      { field: 'returnDate', code: 'invalid_date', message: 'Fecha inválida' },
    ]);
  });

  it('requires both dates', () => {
    expect(validateTripDates({ departureDate: undefined, returnDate: '', today }, singleTrip)).toEqual([
      { field: 'departureDate', code: 'required', message: 'Ingresa la fecha de salida' },
      { field: 'returnDate', code: 'required', message: 'Ingresa la fecha de regreso' },
    ]);
  });

  it('rejects a return before the departure', () => {
    expect(validateTripDates({ departureDate: '2026-12-10', returnDate: '2026-12-01', today }, singleTrip)).toEqual([
      {
        field: 'returnDate',
        code: 'return_before_departure',
        message: 'La fecha de regreso debe ser igual o posterior a la de salida',
      },
    ]);
  });

  it('rejects a departure in the past or more than a year ahead', () => {
    expect(validateTripDates({ departureDate: '2026-11-21', returnDate: '2026-11-30', today }, singleTrip)).toEqual([
      { field: 'departureDate', code: 'departure_in_past', message: 'La fecha de salida no puede ser anterior a hoy' },
    ]);
    expect(validateTripDates({ departureDate: '2027-11-23', returnDate: '2027-11-30', today }, singleTrip)).toEqual([
      {
        field: 'departureDate',
        code: 'departure_too_far',
        message: 'La fecha de salida no puede ser posterior a 365 días desde hoy',
      },
    ]);
  });

  it('enforces the modality limits on trip length', () => {
    // 181 days on a single trip, 60 on a long stay
    expect(validateTripDates({ departureDate: '2026-12-01', returnDate: '2027-05-30', today }, singleTrip)).toEqual([
      {
        field: 'returnDate',
        code: 'trip_too_long',
        message: 'El viaje no puede durar más de 180 días en esta modalidad',
      },
    ]);
    expect(validateTripDates({ departureDate: '2026-12-01', returnDate: '2027-01-29', today }, longStay)).toEqual([
      {
        field: 'returnDate',
        code: 'trip_too_short',
        message: 'El viaje debe durar al menos 61 días en esta modalidad',
      },
    ]);
  });

  it('requires the fixed return date of the annual modality', () => {
    expect(validateTripDates({ departureDate: '2026-12-01', returnDate: '2027-11-30', today }, annual)).toEqual([]);
    expect(validateTripDates({ departureDate: '2026-12-01', returnDate: '2027-06-30', today }, annual)).toEqual([
      {
        field: 'returnDate',
        code: 'return_date_fixed',
        message: 'En esta modalidad la fecha de regreso es 2027-11-30',
      },
    ]);
  });
});

describe('chileDayStart', () => {
  it('is midnight in Chile, summer (−3) and winter (−4)', () => {
    expect(chileDayStart('2026-12-01').toISOString()).toBe('2026-12-01T03:00:00.000Z');
    expect(chileDayStart('2026-07-01').toISOString()).toBe('2026-07-01T04:00:00.000Z');
  });

  it('is 01:00 when clocks go forward at midnight, and after the repeated hour when they go back', () => {
    // 2026-09-06: 24:00 (−4) becomes 01:00 (−3). 2026-04-05: 24:00 (−3) becomes 23:00 (−4) of the 4th.
    expect(chileDayStart('2026-09-06').toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(todayInChile(new Date('2026-09-06T03:59:59.999Z'))).toBe('2026-09-05');
    expect(chileDayStart('2026-04-05').toISOString()).toBe('2026-04-05T04:00:00.000Z');
    expect(todayInChile(new Date('2026-04-05T03:59:59.999Z'))).toBe('2026-04-04');
  });
});

describe('Chile wall time (issue 25: a publication scheduled in Chile time)', () => {
  it('reads both offsets, refuses the hour skipped in September and takes the first of the hour repeated in April', () => {
    expect(chileWallTimeToInstant('2027-01-15T10:00')?.toISOString()).toBe('2027-01-15T13:00:00.000Z');
    expect(chileWallTimeToInstant('2027-07-15T10:00')?.toISOString()).toBe('2027-07-15T14:00:00.000Z');
    expect(chileWallTimeToInstant('2027-09-05T00:30')).toBeNull();
    expect(chileWallTimeToInstant('2027-04-03T23:30')?.toISOString()).toBe('2027-04-04T02:30:00.000Z');
    expect(chileWallTimeToInstant('2027-02-30T10:00')).toBeNull();
    expect(chileWallTimeToInstant('mañana')).toBeNull();
  });

  it('an instant reads back as the wall time it came from', () => {
    for (const wall of ['2026-12-31T23:59', '2027-04-04T00:00', '2027-09-05T01:00', '2027-06-01T08:15']) {
      const instant = chileWallTimeToInstant(wall);
      expect(instant && chileWallTimeOf(instant)).toBe(wall);
    }
  });
});
