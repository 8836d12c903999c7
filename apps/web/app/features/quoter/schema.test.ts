import { addDays, todayInChile } from '@travesia/domain/dates';
import { PassengerType } from '@travesia/domain/ids';
import { describe, expect, it } from 'vitest';
import { modalityRules, type QuoterValues, quoterErrors, quoterSchema } from './schema.ts';

const today = todayInChile();
const departureDate = addDays(today, 30);
const singleTrip = {
  id: 1,
  label: 'Viaje único',
  returnDateConfiguration: { enabled: true, addDays: 7 },
  minDays: 1,
  maxDays: 180,
} as Parameters<typeof quoterSchema>[0][number];
const values = (): QuoterValues => ({
  origin: '1',
  modality: '1',
  destination: '3',
  departureDate,
  returnDate: addDays(departureDate, 9),
  passengers: { [PassengerType.upTo74]: 2 },
  discountCode: '',
  upgradeCovid: false,
});
const fieldsOf = (input: QuoterValues) => {
  const result = quoterSchema([singleTrip], today).safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
};

describe('quoterSchema', () => {
  it('accepts a complete trip', () => {
    expect(fieldsOf(values())).toEqual([]);
  });
  it('asks for origin, modality and destination', () => {
    expect(fieldsOf({ ...values(), origin: '', destination: '' })).toEqual(['origin', 'destination']);
  });
  it('counts the passengers of every type: at least one, at most nine', () => {
    expect(fieldsOf({ ...values(), passengers: { 1: 0, 2: 0 } })).toEqual(['passengers']);
    expect(fieldsOf({ ...values(), passengers: { 1: 5, 2: 5 } })).toEqual(['passengers']);
    expect(fieldsOf({ ...values(), passengers: { 1: 4, 2: 5 } })).toEqual([]);
  });
  it('checks the dates by the chosen modality', () => {
    expect(fieldsOf({ ...values(), departureDate: addDays(today, -1) })).toContain('departureDate');
    expect(fieldsOf({ ...values(), returnDate: addDays(departureDate, -1) })).toContain('returnDate');
  });
  it('skips the date rules while the modality is unknown', () => {
    expect(fieldsOf({ ...values(), modality: '99', returnDate: '' })).toEqual([]);
  });
});

describe('quoterErrors', () => {
  it('gives each field its first message, as the form shows it, and nothing for a valid trip', () => {
    expect(quoterErrors(values(), [singleTrip], today)).toEqual({});
    const errors = quoterErrors(
      { ...values(), destination: '', departureDate: '', returnDate: '', passengers: { 1: 0 } },
      [singleTrip],
      today,
    );
    expect(Object.keys(errors).sort()).toEqual(['departureDate', 'destination', 'passengers', 'returnDate']);
    expect(errors.departureDate).toBe('Ingresa la fecha de salida');
    expect(errors.passengers).toMatch(/pasajero/i);
  });
});

describe('modalityRules', () => {
  it('reads the modality in the domain’s terms', () => {
    expect(modalityRules(singleTrip)).toEqual({ returnDateEnabled: true, returnAddDays: 7, minDays: 1, maxDays: 180 });
  });
});
