import { addDays, todayInChile } from '@travesia/domain/dates';
import { DocumentType, Nationality, PassengerType, passengerBands } from '@travesia/domain/ids';
import { describe, expect, it } from 'vitest';
import {
  initialPassengersValues,
  type PassengersValues,
  passengerSlots,
  passengersFieldOfApi,
  passengersSchema,
  passengersValuesOfForm,
  termsMessage,
  toPassengersBody,
} from './passengers-schema.ts';

const departureDate = addDays(todayInChile(), 30);
const bornYearsBefore = (years: number) => `${Number(departureDate.slice(0, 4)) - years}${departureDate.slice(4)}`;
const adult = passengerBands[0];
const slots = [{ passengerTypeId: PassengerType.upTo74, ageFrom: adult.ageFrom, ageTo: adult.ageTo }];
const contact = { firstName: 'Ana', lastName: 'Rojas', phone: '+56 2 2345 6789' };
const blank = { firstName: '', lastName: '', phone: '' };
const values = (): PassengersValues => ({
  passengers: [
    {
      firstName: ' Camila ',
      lastName: 'Rojas Soto',
      gender: 'F',
      birthDate: bornYearsBefore(30),
      nationality: String(Nationality.chile),
      document: { type: String(DocumentType.rut), id: '123456785' },
      email: 'camila@example.cl ',
      phone: '+56 9 1234 5678',
      emergencyContact: blank,
      addOns: [],
    },
  ],
  shareEmergencyContact: true,
  emergencyContact: contact,
  countryDestination: '17',
  acceptTerms: true,
});
const fieldsOf = (input: PassengersValues) => {
  const result = passengersSchema(slots, departureDate).safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
};

describe('passengersSchema', () => {
  it('accepts a complete form', () => {
    expect(fieldsOf(values())).toEqual([]);
  });
  it('asks for the terms to be accepted', () => {
    const result = passengersSchema(slots, departureDate).safeParse({ ...values(), acceptTerms: false });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['acceptTerms', termsMessage]]);
  });
  it('checks the birth date against the passenger’s age band on the departure date', () => {
    const tooOld = values();
    const [first] = tooOld.passengers;
    if (first) first.birthDate = bornYearsBefore(80);
    expect(fieldsOf(tooOld)).toEqual(['passengers.0.birthDate']);
  });
  it('checks the shared emergency contact, or each passenger’s own when not shared', () => {
    expect(fieldsOf({ ...values(), emergencyContact: blank })).toEqual([
      'emergencyContact.firstName',
      'emergencyContact.lastName',
      'emergencyContact.phone',
    ]);
    // Not shared: the shared one is not asked, each passenger's is.
    expect(fieldsOf({ ...values(), shareEmergencyContact: false, emergencyContact: blank })).toEqual([
      'passengers.0.emergencyContact.firstName',
      'passengers.0.emergencyContact.lastName',
      'passengers.0.emergencyContact.phone',
    ]);
  });
  it('asks for the destination country', () => {
    expect(fieldsOf({ ...values(), countryDestination: '' })).toEqual(['countryDestination']);
  });
});

describe('passengerSlots', () => {
  it('one slot per traveller, youngest band first', () => {
    const slotsOf = passengerSlots([
      { passengerTypeId: 2, quantity: 1, ageFrom: 75, ageTo: 84 },
      { passengerTypeId: 1, quantity: 2, ageFrom: 0, ageTo: 74 },
    ]);
    expect(slotsOf.map((s) => s.passengerTypeId)).toEqual([1, 1, 2]);
  });
});

describe('initialPassengersValues', () => {
  it('starts empty with the shared contact and the only country chosen', () => {
    const start = initialPassengersValues(slots, null, [{ id: 17, name: 'España' } as never]);
    expect(start.passengers).toHaveLength(1);
    expect(start.passengers[0]?.firstName).toBe('');
    expect(start.shareEmergencyContact).toBe(true);
    expect(start.countryDestination).toBe('17');
    expect(start.acceptTerms).toBe(false);
  });
});

describe('toPassengersBody', () => {
  it('trims, formats the RUT and sends the shared contact once', () => {
    const body = toPassengersBody(values());
    expect(body.emergencyContact).toEqual(contact);
    expect(body.countryDestination).toBe(17);
    expect(body.passangers[0]).toMatchObject({
      firstName: 'Camila',
      email: 'camila@example.cl',
      nationality: Nationality.chile,
      document: { type: DocumentType.rut, id: '12.345.678-5' },
      emergencyContact: null,
    });
  });
  it('sends each passenger’s contact when not shared', () => {
    const body = toPassengersBody({ ...values(), shareEmergencyContact: false });
    expect(body.emergencyContact).toBeNull();
    expect(body.passangers[0]?.emergencyContact).toEqual(blank);
  });
});

describe('passengersFieldOfApi', () => {
  it('maps the API’s passangers.N fields to the form’s, the rest to the whole form', () => {
    expect(passengersFieldOfApi('passangers.0.document.id')).toBe('passengers.0.document.id');
    expect(passengersFieldOfApi('passangers.0.unknown')).toBeNull();
    // An add-on refused (or one of its ids) is marked on the traveller's add-on boxes.
    expect(passengersFieldOfApi('passangers.2.adicionales')).toBe('passengers.2.addOns');
    expect(passengersFieldOfApi('passangers.2.adicionales.1')).toBe('passengers.2.addOns');
  });
});

describe('passengersValuesOfForm', () => {
  /** The form as a browser posts it without JavaScript: the inputs' names, the date as typed, ticked boxes only. */
  const posted = (fields: Record<string, string>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return form;
  };
  const traveller = {
    'passengers.0.firstName': ' Camila ',
    'passengers.0.lastName': 'Rojas Soto',
    'passengers.0.gender': 'F',
    'passengers.0.birthDate': `${bornYearsBefore(30).slice(8)}-${bornYearsBefore(30).slice(5, 7)}-${bornYearsBefore(30).slice(0, 4)}`,
    'passengers.0.nationality': String(Nationality.chile),
    'passengers.0.document.type': String(DocumentType.rut),
    'passengers.0.document.id': '123456785',
    'passengers.0.email': 'camila@example.cl ',
    'passengers.0.phone': '+56 9 1234 5678',
  };

  it('reads the named fields as the form holds them: the typed date as ISO, a ticked box as true', () => {
    const form = posted({
      ...traveller,
      'emergencyContact.firstName': 'Ana',
      'emergencyContact.lastName': 'Rojas',
      'emergencyContact.phone': '+56 2 2345 6789',
      countryDestination: '17',
      acceptTerms: 'on',
    });
    expect(passengersValuesOfForm(form, 1)).toEqual(values());
    expect(toPassengersBody(passengersValuesOfForm(form, 1))).toEqual(toPassengersBody(values()));
  });

  it('reads each traveller’s ticked add-ons and sends them once each as ids; what is not an id is not sent', () => {
    const form = posted({ ...traveller, countryDestination: '17', acceptTerms: 'on' });
    for (const id of ['7', '3', '7', 'x', '-2']) form.append('passengers.0.addOns', id);
    const read = passengersValuesOfForm(form, 1);
    expect(read.passengers[0]?.addOns).toEqual(['7', '3', '7', 'x', '-2']);
    expect(toPassengersBody(read).passangers[0]?.adicionales).toEqual([7, 3]);
  });

  it('reads an unticked box and a select left on «Selecciona» (not sent) as not given, and the rules say so', () => {
    const { 'passengers.0.gender': _gender, ...withoutGender } = traveller;
    const read = passengersValuesOfForm(posted({ ...withoutGender, 'emergencyContact.firstName': 'Ana' }), 1);
    expect(read.passengers[0]?.gender).toBe('');
    expect(read.acceptTerms).toBe(false);
    expect(read.countryDestination).toBe('');
    expect(fieldsOf(read)).toEqual(
      expect.arrayContaining(['passengers.0.gender', 'countryDestination', 'acceptTerms']),
    );
  });

  it('keeps a date that is not one as typed, for the rules to name it', () => {
    const read = passengersValuesOfForm(posted({ ...traveller, 'passengers.0.birthDate': '31-02-1990' }), 1);
    expect(read.passengers[0]?.birthDate).toBe('31-02-1990');
    expect(fieldsOf(read)).toContain('passengers.0.birthDate');
  });

  it('shares the contact per the box with two travellers or more; alone, unless their own contact was shown', () => {
    expect(passengersValuesOfForm(posted({ shareEmergencyContact: 'on' }), 2).shareEmergencyContact).toBe(true);
    expect(passengersValuesOfForm(posted({}), 2).shareEmergencyContact).toBe(false);
    expect(passengersValuesOfForm(posted({ 'emergencyContact.firstName': '' }), 1).shareEmergencyContact).toBe(true);
    const own = posted({ 'passengers.0.emergencyContact.firstName': 'Ana' });
    expect(passengersValuesOfForm(own, 1).shareEmergencyContact).toBe(false);
    expect(passengersValuesOfForm(own, 1).passengers[0]?.emergencyContact.firstName).toBe('Ana');
  });
});
