import type { FieldErrorCode } from './field-errors.ts';

/**
 * Trip dates as calendar days ('YYYY-MM-DD'), computed in UTC so no time zone or daylight-saving change can move a
 * day. Trip days count both ends: a trip leaving and returning the same day lasts 1 day.
 */

const isoDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dayMs = 86_400_000;

/** Days since 1970-01-01 of a valid ISO calendar date, or null (2026-02-30 is not a date). */
export function parseIsoDate(value: string): number | null {
  const match = isoDatePattern.exec(value);
  if (!match) return null;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const time = Date.UTC(y, m - 1, d);
  const date = new Date(time);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return time / dayMs;
}

export function formatIsoDate(dayNumber: number): string {
  return new Date(dayNumber * dayMs).toISOString().slice(0, 10);
}

export function addDays(isoDate: string, days: number): string {
  const day = parseIsoDate(isoDate);
  if (day === null) throw new RangeError(`Not a date: ${isoDate}`);
  return formatIsoDate(day + days);
}

/** Trip days = return − departure + 1. */
export function tripDays(departureDate: string, returnDate: string): number {
  const from = parseIsoDate(departureDate);
  const to = parseIsoDate(returnDate);
  if (from === null || to === null) throw new RangeError('Not a date');
  return to - from + 1;
}

/**
 * Built once, on first use: a DateTimeFormat costs far more to create than to use (this runs on every priced request),
 * and creating one with a time zone takes a phone ~60 ms, which a page that imports this module but never asks for
 * today's date (or asks later, in a hydration slice) should not pay while its scripts are evaluated.
 */
let chileDateFormat: Intl.DateTimeFormat | undefined;

/**
 * The last day formatted and the minute it was formatted for. Since 1910 every offset of America/Santiago is a whole
 * number of hours, so the date in Chile only ever changes on a minute boundary: within one UTC minute it is the same
 * (formatting it was 4 % of a kept plan search answer's CPU, issue #10).
 */
let lastDay: { minute: number; day: string } | undefined;
const minuteMs = 60_000;

/** Today's calendar date in Chile (America/Santiago), the day a visitor sees on the quoter. */
export function todayInChile(now: Date = new Date()): string {
  const time = now.getTime();
  const minute = Math.floor(time / minuteMs);
  if (lastDay?.minute === minute) return lastDay.day;
  chileDateFormat ??= new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' });
  const day = chileDateFormat.format(now);
  // Before 1910 the offset had seconds (LMT): those dates are formatted, never remembered.
  if (time >= 0) lastDay = { minute, day };
  return day;
}

/** The calendar date in Chile (YYYY-MM-DD) of an instant: the day a document prints for a payment or a change. */
export function chileDateOf(instant: string | Date): string {
  return todayInChile(new Date(instant));
}

/**
 * The first instant of a calendar day in Chile (America/Santiago): its midnight, or 01:00 on the day clocks go
 * forward at midnight (September), and the second midnight's end on the day they go back (April: 23:00–24:00 of the
 * day before happens twice, the day starts after it). Chile's offsets (−3, −4) are whole hours, so the first whole UTC
 * hour whose Chile date is the day is its start.
 */
export function chileDayStart(isoDate: string): Date {
  const day = parseIsoDate(isoDate);
  if (day === null) throw new RangeError(`Not a date: ${isoDate}`);
  for (let hour = 0; hour <= 12; hour += 1) {
    const instant = new Date(day * dayMs + hour * 3_600_000);
    if (todayInChile(instant) === isoDate) return instant;
  }
  throw new RangeError(`No start of ${isoDate} in Chile`);
}

export type ModalityDateRules = {
  /** true: the visitor chooses the return date; false: it is departure + returnAddDays. */
  returnDateEnabled: boolean;
  returnAddDays: number;
  minDays: number;
  maxDays: number;
};

export type TripDateField = 'departureDate' | 'returnDate';
export type TripDateError = { field: TripDateField; code: FieldErrorCode; message: string };

/** How far ahead a trip may be bought. */
export const maxDaysAhead = 365;

export const tripDateMessages = {
  departureRequired: 'Ingresa la fecha de salida',
  returnRequired: 'Ingresa la fecha de regreso',
  invalidDate: 'Fecha inválida',
  departureInPast: 'La fecha de salida no puede ser anterior a hoy',
  departureTooFar: `La fecha de salida no puede ser posterior a ${maxDaysAhead} días desde hoy`,
  returnBeforeDeparture: 'La fecha de regreso debe ser igual o posterior a la de salida',
  tooShort: (min: number) => `El viaje debe durar al menos ${min} ${min === 1 ? 'día' : 'días'} en esta modalidad`,
  tooLong: (max: number) => `El viaje no puede durar más de ${max} días en esta modalidad`,
  fixedReturn: (date: string) => `En esta modalidad la fecha de regreso es ${date}`,
} as const;

/** The return date a modality imposes, or null when the visitor chooses it. */
export function fixedReturnDate(departureDate: string, rules: ModalityDateRules): string | null {
  return rules.returnDateEnabled ? null : addDays(departureDate, rules.returnAddDays);
}

/** Every problem with a trip's dates for a modality, by field, with its code and Spanish message. Empty when fine. */
export function validateTripDates(
  input: { departureDate: string | undefined; returnDate: string | undefined; today: string },
  rules: ModalityDateRules,
): TripDateError[] {
  const errors: TripDateError[] = [];
  const m = tripDateMessages;
  const report = (field: TripDateField, code: FieldErrorCode, message: string) => {
    errors.push({ field, code, message });
  };
  if (!input.departureDate) report('departureDate', 'required', m.departureRequired);
  if (!input.returnDate) report('returnDate', 'required', m.returnRequired);
  if (!input.departureDate || !input.returnDate) return errors;

  const departure = parseIsoDate(input.departureDate);
  const back = parseIsoDate(input.returnDate);
  const today = parseIsoDate(input.today);
  if (departure === null) report('departureDate', 'invalid_date', m.invalidDate);
  if (back === null) report('returnDate', 'invalid_date', m.invalidDate);
  if (departure === null || back === null || today === null) return errors;

  if (departure < today) report('departureDate', 'departure_in_past', m.departureInPast);
  if (departure > today + maxDaysAhead) report('departureDate', 'departure_too_far', m.departureTooFar);
  if (back < departure) {
    report('returnDate', 'return_before_departure', m.returnBeforeDeparture);
    return errors;
  }
  if (!rules.returnDateEnabled) {
    const expected = departure + rules.returnAddDays;
    if (back !== expected) report('returnDate', 'return_date_fixed', m.fixedReturn(formatIsoDate(expected)));
    return errors;
  }
  const days = back - departure + 1;
  if (days < rules.minDays) report('returnDate', 'trip_too_short', m.tooShort(rules.minDays));
  if (days > rules.maxDays) report('returnDate', 'trip_too_long', m.tooLong(rules.maxDays));
  return errors;
}

let chileWallFormat: Intl.DateTimeFormat | undefined;

/** An instant as Chile's wall-clock time, `YYYY-MM-DDTHH:mm` (America/Santiago, daylight saving included). */
export function chileWallTimeOf(instant: Date): string {
  chileWallFormat ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Santiago',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const parts = Object.fromEntries(chileWallFormat.formatToParts(instant).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/**
 * The instant a Chile wall-clock time (`YYYY-MM-DDTHH:mm`) names. Chile's offsets are −3 (summer) and −4 (winter):
 * the one whose instant reads back as the same wall time is it. A time skipped when clocks go forward (September)
 * names no instant (null); one that happens twice when they go back (April) is the first of the two.
 */
export function chileWallTimeToInstant(wallTime: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(wallTime);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match.map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  for (const offsetHours of [3, 4]) {
    const instant = new Date(asUtc + offsetHours * 3_600_000);
    if (chileWallTimeOf(instant) === wallTime) return instant;
  }
  return null;
}
