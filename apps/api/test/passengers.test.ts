import { addDays, todayInChile } from '@travesia/domain/dates';
import { DocumentType, Nationality, PassengerType } from '@travesia/domain/ids';
import { errorMessages } from '@travesia/domain/messages';
import { ageMismatch, alreadyPaid, emergencyContactMissing, ruleMessages as r } from '@travesia/domain/rules';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { quotations, sales, travellers } from '#app/db/schema.ts';
import { quotationIdMessage } from '#app/http.ts';
import { passengerMessages as pm } from '#app/modules/passengers/schemas.ts';
import { listTravellers, replaceTravellers } from '#app/modules/passengers/service.ts';
import { lockPurchase } from '#app/workflows/purchase.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { type Answer, call, expectBadRequest, expectError, get } from './support/http.ts';
import { createQuotation, readQuotation } from './support/trips.ts';

const unknownId = '7d8f3a52-1c4b-4e8a-9f0e-2b6c1d3e4f50';

/** The code and message of each field error these tests expect. */
const m = {
  required: { code: 'required', message: r.required },
  invalidRut: { code: 'invalid_rut', message: r.invalidRut },
  invalidDni: { code: 'invalid_document', message: r.invalidDni },
  documentType: { code: 'invalid_option', message: r.documentType },
  nameTooLong: { code: 'too_long', message: r.tooLong(60) },
  nationality: { code: 'invalid_option', message: r.nationality },
  gender: { code: 'invalid_option', message: r.gender },
  invalidDate: { code: 'invalid_date', message: r.invalidDate },
  futureBirthDate: { code: 'future_date', message: r.futureBirthDate },
  emailFormat: { code: 'invalid_email', message: r.invalidEmail },
  emailLength: { code: 'too_long', message: r.emailTooLong },
  phone: { code: 'invalid_phone', message: r.invalidPhone },
  list: { code: 'required', message: pm.list },
  emergencyContactRequired: emergencyContactMissing,
  ageMismatch,
  alreadyPaid,
  passengerCount: (expected: number) => ({ code: 'count_mismatch', message: pm.passengerCount(expected) }),
  countryOutsideRegion: { code: 'country_outside_region', message: pm.countryOutsideRegion },
  passengerTypeMismatch: { code: 'passenger_type_mismatch', message: pm.passengerTypeMismatch },
  planMismatch: { code: 'plan_mismatch', message: pm.planMismatch },
  sameCountry: { code: 'country_mismatch', message: pm.sameCountry },
  seq: (count: number) => ({ code: 'invalid_sequence', message: pm.seq(count) }),
  quotationId: { code: 'invalid_format', message: quotationIdMessage },
};
type Expected = { code: string; message: string };

/*
 * RUTs with their check digit computed by hand (weights 2,3,4,5,6,7,2,3… from the rightmost digit, 11 − sum mod 11):
 * 12.345.678 → 8·2 + 7·3 + 6·4 + 5·5 + 4·6 + 3·7 + 2·2 + 1·3 = 138; 138 mod 11 = 6; 11 − 6 = 5 → 12.345.678-5.
 * 7.654.321  → 1·2 + 2·3 + 3·4 + 4·5 + 5·6 + 6·7 + 7·2 = 126; 126 mod 11 = 5; 11 − 5 = 6 → 7.654.321-6.
 * 20.123.456 → 6·2 + 5·3 + 4·4 + 3·5 + 2·6 + 1·7 + 0·2 + 2·3 = 83; 83 mod 11 = 6; 11 − 6 = 5 → 20.123.456-5.
 */
const rutA = '12.345.678-5';
const rutB = '7.654.321-6';
const rutC = '20.123.456-5';
const wrongRut = '12.345.678-4';

type Contact = { firstName: string; lastName: string; phone: string };
type Passenger = {
  firstName: string;
  lastName: string;
  gender: 'F' | 'M' | 'X';
  birthDate: string;
  nationality: number;
  document: { type: number; id: string };
  email: string;
  phone: string;
  emergencyContact: Contact | null;
};
type PassengersBody = {
  shareEmergencyContact: boolean;
  emergencyContact: Contact | null;
  countryDestination: number;
  passangers: Passenger[];
};
type DetailRow = Record<string, unknown> & { seq: number };

/** The reference quotation of support/trips.ts: Europe (region 3), 2 × type 1 (0–74) + 1 × type 2 (75–84). */
const europe = { spain: 17, france: 18, unitedStates: 10 };
const leavingIn = 10;
const departure = () => addDays(todayInChile(), leavingIn);

/**
 * A birth date whose age on the departure date is `age`, the birthday falling `daysBeforeDeparture` days before
 * departure (negative: after it, so the traveller is one year younger on the departure date).
 */
function bornAged(age: number, daysBeforeDeparture = 40): string {
  const [year = '', month = '', day = ''] = departure().split('-');
  const anniversary = `${Number(year) - age}-${month}-${month === '02' && day === '29' ? '28' : day}`;
  return addDays(anniversary, -daysBeforeDeparture);
}

const contactOf = (firstName: string): Contact => ({ firstName, lastName: 'Soto', phone: '+56 2 2345 6789' });

function passenger(overrides: Partial<Passenger> = {}): Passenger {
  return {
    firstName: 'Camila',
    lastName: 'Rojas',
    gender: 'F',
    birthDate: bornAged(30),
    nationality: Nationality.chile,
    document: { type: DocumentType.rut, id: rutA },
    email: 'camila@example.cl',
    phone: '+56 9 1234 5678',
    emergencyContact: contactOf('Pedro'),
    ...overrides,
  };
}

/** Three travellers fitting the reference quotation: 30 and 28 (type 1), 78 (type 2), one contact each. */
function passengersBody(overrides: Partial<PassengersBody> = {}): PassengersBody {
  return {
    shareEmergencyContact: false,
    emergencyContact: null,
    countryDestination: europe.spain,
    passangers: [
      passenger(),
      passenger({
        firstName: 'Diego',
        lastName: 'Muñoz',
        gender: 'M',
        birthDate: bornAged(28),
        nationality: Nationality.other,
        document: { type: DocumentType.dni, id: 'AR30111222' },
        email: 'diego@example.com',
        phone: '(011) 4321-5678',
        emergencyContact: contactOf('Lucía'),
      }),
      passenger({
        firstName: 'Rosa',
        lastName: 'Pérez',
        birthDate: bornAged(78),
        document: { type: DocumentType.rut, id: rutB },
        email: 'rosa@example.cl',
        emergencyContact: contactOf('Marta'),
      }),
    ],
    ...overrides,
  };
}

/** A body with passenger `index` changed. */
function withPassenger(index: number, overrides: Partial<Passenger>, body = passengersBody()): PassengersBody {
  return { ...body, passangers: body.passangers.map((p, i) => (i === index ? { ...p, ...overrides } : p)) };
}

const url = (id: string, suffix = 'passangers') => `/api/quotations/${id}/${suffix}`;
const putPassengers = (ctx: TestContext, id: string, body: unknown) =>
  call(ctx.app, { method: 'PUT', url: url(id), payload: body as Record<string, unknown> });
const putDetail = (ctx: TestContext, id: string, body: unknown) =>
  call(ctx.app, { method: 'PUT', url: url(id, 'passangers-detail'), payload: body as Record<string, unknown>[] });

/** Asserts a 400 «Invalid inputs supplied» whose field errors are exactly `expected` (in any order). */
function expectInvalid(answer: Answer, instance: string, expected: ({ field: string } & Expected)[]) {
  const errors = expectBadRequest(answer, errorMessages.invalidInputs, instance);
  const byField = (a: { field: string }, b: { field: string }) => a.field.localeCompare(b.field);
  expect([...errors].sort(byField)).toStrictEqual([...expected].sort(byField));
}

async function expectSaved(answer: Answer) {
  expect(answer.status, answer.text).toBe(204);
  expect(answer.text).toBe('');
}

/** The GET answer: what was sent, names trimmed, each passenger with its order and passenger type. */
function expectedPassengers(body: PassengersBody, types: number[]) {
  return {
    ...body,
    emergencyContact: body.shareEmergencyContact ? body.emergencyContact : null,
    passangers: body.passangers.map((p, index) => ({
      seq: index + 1,
      passengerTypeId: types[index],
      ...p,
      emergencyContact: body.shareEmergencyContact ? null : p.emergencyContact,
      adicionales: [],
    })),
  };
}

/** Legacy rows of the reference travellers, in the order given by `seqs` (seq 1 = the first traveller). */
function detailRows(planId: number | null, overrides: Partial<DetailRow>[] = []): DetailRow[] {
  const body = passengersBody();
  return body.passangers.map((p, index) => ({
    idProducto: planId,
    idPassangerType: index === 2 ? PassengerType.from75To84 : PassengerType.upTo74,
    name: p.firstName,
    lastName: p.lastName,
    gender: p.gender,
    idNacionality: p.nationality,
    idIdentification: p.document.type,
    identification: p.document.id,
    dob: p.birthDate,
    email: p.email,
    phone: p.phone,
    idCountry: europe.spain,
    nameContact: p.emergencyContact?.firstName,
    lastNameContact: p.emergencyContact?.lastName,
    phoneContact: p.emergencyContact?.phone,
    seq: index + 1,
    ...overrides[index],
  }));
}

let saleIds = 900_000;

/** A sale as the payments step would record it (the id is explicit: the test does not depend on its default). */
async function insertSale(ctx: TestContext, quotationId: string, status: 'pending' | 'paid') {
  saleIds += 1;
  await ctx.database.db.insert(sales).values({
    id: saleIds,
    companyId: 1,
    quotationId,
    productId: 411,
    amountUsdCents: 10_000,
    amountClp: 94_853,
    status,
    paidAt: status === 'paid' ? new Date() : null,
  });
  return saleIds;
}

describeOnEachDatabase('passengers: save and read', (ctx) => {
  it('PUT answers 204 with no body; GET answers what was sent, each traveller with seq and passenger type', async () => {
    const id = await createQuotation(ctx);
    const body = passengersBody();
    await expectSaved(await putPassengers(ctx, id, body));
    const answer = await get(ctx.app, url(id));
    expect(answer.status).toBe(200);
    expect(answer.json()).toStrictEqual(expectedPassengers(body, [1, 1, 2]));
  });

  it('GET before any PUT → 404 Resource not found', async () => {
    const id = await createQuotation(ctx);
    expectError(await get(ctx.app, url(id)), 404, errorMessages.resourceNotFound, url(id));
  });

  it('names and contact fields are stored trimmed', async () => {
    const id = await createQuotation(ctx);
    const body = withPassenger(0, { firstName: '  Camila ', lastName: ' Rojas  ', email: ' camila@example.cl ' });
    await expectSaved(await putPassengers(ctx, id, body));
    const saved = (await get(ctx.app, url(id))).json<PassengersBody>();
    expect(saved.passangers[0]).toMatchObject({ firstName: 'Camila', lastName: 'Rojas', email: 'camila@example.cl' });
  });

  it('a second PUT replaces the travellers, the contact and the country', async () => {
    const id = await createQuotation(ctx);
    await expectSaved(await putPassengers(ctx, id, passengersBody()));
    const second = passengersBody({
      shareEmergencyContact: true,
      emergencyContact: contactOf('Ana'),
      countryDestination: europe.france,
    });
    second.passangers = [second.passangers[2], second.passangers[0], second.passangers[1]].map((p) => ({
      ...(p as Passenger),
      emergencyContact: null,
    }));
    await expectSaved(await putPassengers(ctx, id, second));
    expect((await get(ctx.app, url(id))).json()).toStrictEqual(expectedPassengers(second, [2, 1, 1]));
    expect(await ctx.database.db.select().from(travellers).where(eq(travellers.quotationId, id))).toHaveLength(3);
  });

  it('the age that counts is the one on the departure date, not today', async () => {
    const id = await createQuotation(ctx);
    // 74 today, 75 on departure: a type-2 traveller.
    const turnsOlder = withPassenger(2, { birthDate: bornAged(75, 2) });
    await expectSaved(await putPassengers(ctx, id, turnsOlder));
    expect(
      (await get(ctx.app, url(id))).json<{ passangers: { passengerTypeId: number }[] }>().passangers[2],
    ).toMatchObject({ passengerTypeId: 2 });
    // 75 the day after departure: still type 1 then, which makes three type-1 travellers for two quoted.
    const tooYoung = withPassenger(2, { birthDate: bornAged(75, -1) });
    expectInvalid(await putPassengers(ctx, id, tooYoung), url(id), [
      { field: 'passangers.2.birthDate', ...m.ageMismatch },
    ]);
  });

  it('listTravellers (for payments) answers the stored travellers in order, with ids and their contact', async () => {
    const id = await createQuotation(ctx);
    expect(await listTravellers(ctx.database.db, id)).toStrictEqual([]);
    const body = passengersBody();
    await expectSaved(await putPassengers(ctx, id, body));
    const stored = await listTravellers(ctx.database.db, id);
    expect(stored.map(({ id: travellerId, ...rest }) => [typeof travellerId, rest])).toStrictEqual(
      body.passangers.map((p, index) => [
        'number',
        {
          seq: index + 1,
          passengerTypeId: index === 2 ? 2 : 1,
          firstName: p.firstName,
          lastName: p.lastName,
          gender: p.gender,
          birthDate: p.birthDate,
          nationality: p.nationality,
          document: p.document,
          email: p.email,
          phone: p.phone,
          emergencyContact: p.emergencyContact,
          addOnIds: [],
        },
      ]),
    );
  });
});

describeOnEachDatabase('passengers: emergency contact', (ctx) => {
  it('shared: the top-level contact is stored on every traveller; GET shows it once, passengers null', async () => {
    const id = await createQuotation(ctx);
    const shared = contactOf('Ana');
    const body = passengersBody({ shareEmergencyContact: true, emergencyContact: shared });
    body.passangers = body.passangers.map((p) => ({ ...p, emergencyContact: null }));
    await expectSaved(await putPassengers(ctx, id, body));
    expect((await get(ctx.app, url(id))).json()).toStrictEqual(expectedPassengers(body, [1, 1, 2]));
    const stored = await listTravellers(ctx.database.db, id);
    expect(stored.map((t) => t.emergencyContact)).toStrictEqual([shared, shared, shared]);
  });

  it('shared: a contact typed on a passenger is ignored, the shared one applies', async () => {
    const id = await createQuotation(ctx);
    const shared = contactOf('Ana');
    await expectSaved(
      await putPassengers(ctx, id, passengersBody({ shareEmergencyContact: true, emergencyContact: shared })),
    );
    const stored = await listTravellers(ctx.database.db, id);
    expect(stored.map((t) => t.emergencyContact)).toStrictEqual([shared, shared, shared]);
  });

  it('shared without the top-level contact → 400 on emergencyContact', async () => {
    const id = await createQuotation(ctx);
    const answer = await putPassengers(
      ctx,
      id,
      passengersBody({ shareEmergencyContact: true, emergencyContact: null }),
    );
    expectInvalid(answer, url(id), [{ field: 'emergencyContact', ...m.emergencyContactRequired }]);
  });

  it('not shared: each passenger needs one → 400 on every passenger without it', async () => {
    const id = await createQuotation(ctx);
    const body = withPassenger(0, { emergencyContact: null }, withPassenger(2, { emergencyContact: null }));
    expectInvalid(await putPassengers(ctx, id, body), url(id), [
      { field: 'passangers.0.emergencyContact', ...m.emergencyContactRequired },
      { field: 'passangers.2.emergencyContact', ...m.emergencyContactRequired },
    ]);
  });

  it('not shared: the per-passenger contact keeps each own values; a bad contact phone is named', async () => {
    const id = await createQuotation(ctx);
    const answer = await putPassengers(
      ctx,
      id,
      withPassenger(1, { emergencyContact: { firstName: 'Lucía', lastName: 'Soto', phone: 'llamar' } }),
    );
    expectInvalid(answer, url(id), [{ field: 'passangers.1.emergencyContact.phone', ...m.phone }]);
  });
});

describeOnEachDatabase('passengers: field rules', (ctx) => {
  let id = '';
  beforeAll(async () => {
    id = await createQuotation(ctx);
  });

  const expectFieldError = async (body: PassengersBody, field: string, expected: Expected) =>
    expectInvalid(await putPassengers(ctx, id, body), url(id), [{ field, ...expected }]);

  it('a RUT with its check digit (12.345.678-5, 7.654.321-6, 20.123.456-5 unformatted) is accepted', async () => {
    const body = withPassenger(1, {
      document: { type: DocumentType.rut, id: '201234565' },
      nationality: Nationality.chile,
    });
    await expectSaved(await putPassengers(ctx, id, body));
    expect((await get(ctx.app, url(id))).json<PassengersBody>().passangers.map((p) => p.document.id)).toStrictEqual([
      rutA,
      '201234565',
      rutB,
    ]);
    await expectSaved(
      await putPassengers(ctx, id, withPassenger(1, { document: { type: DocumentType.rut, id: rutC } })),
    );
  });

  it('a RUT with a wrong check digit → RUT inválido on document.id', async () => {
    await expectFieldError(
      withPassenger(0, { document: { type: DocumentType.rut, id: wrongRut } }),
      'passangers.0.document.id',
      m.invalidRut,
    );
  });

  it('a repeated-digit RUT (11.111.111-1) → RUT inválido', async () => {
    await expectFieldError(
      withPassenger(2, { document: { type: DocumentType.rut, id: '11.111.111-1' } }),
      'passangers.2.document.id',
      m.invalidRut,
    );
  });

  it('a DNI of 5 characters without spaces is accepted', async () => {
    await expectSaved(
      await putPassengers(ctx, id, withPassenger(1, { document: { type: DocumentType.dni, id: 'X1234' } })),
    );
  });

  it.each([
    ['4 characters', 'X123'],
    ['an inner space', 'AR 30111222'],
  ])('a DNI with %s → DNI inválido', async (_what, dni) => {
    await expectFieldError(
      withPassenger(1, { document: { type: DocumentType.dni, id: dni } }),
      'passangers.1.document.id',
      m.invalidDni,
    );
  });

  it('a document type other than 1, 2 or 3 (passport) → 400 on document.type', async () => {
    await expectFieldError(
      withPassenger(0, { document: { type: 4, id: rutA } }),
      'passangers.0.document.type',
      m.documentType,
    );
  });

  it.each([
    ['blank first name', { firstName: '   ' }, 'firstName', m.required],
    ['empty last name', { lastName: '' }, 'lastName', m.required],
    ['61-character first name', { firstName: 'a'.repeat(61) }, 'firstName', m.nameTooLong],
  ])('a %s → 400 naming it', async (_what, overrides, field, expected) => {
    await expectFieldError(withPassenger(0, overrides), `passangers.0.${field}`, expected);
  });

  it('a 60-character name is accepted', async () => {
    await expectSaved(await putPassengers(ctx, id, withPassenger(0, { lastName: 'a'.repeat(60) })));
  });

  it('a nationality other than 9 or 38 → 400 on nationality', async () => {
    await expectFieldError(withPassenger(1, { nationality: 10 }), 'passangers.1.nationality', m.nationality);
  });

  it('a gender other than F, M or X → 400 on gender', async () => {
    await expectFieldError(withPassenger(0, { gender: 'Z' as 'F' }), 'passangers.0.gender', m.gender);
  });

  it.each([
    ['not in AAAA-MM-DD', '15/06/1990', m.invalidDate],
    ['not a real day', '1990-02-30', m.invalidDate],
    ['tomorrow', addDays(todayInChile(), 1), m.futureBirthDate],
  ])('a birth date %s → 400 on birthDate', async (_what, birthDate, expected) => {
    await expectFieldError(withPassenger(0, { birthDate }), 'passangers.0.birthDate', expected);
  });

  it.each([
    ['not an e-mail', 'camila@', m.emailFormat],
    ['longer than 50', `${'a'.repeat(39)}@example.com`, m.emailLength],
  ])('an e-mail %s → 400 on email', async (_what, email, expected) => {
    await expectFieldError(withPassenger(2, { email }), 'passangers.2.email', expected);
  });

  it('an e-mail of exactly 50 characters is accepted', async () => {
    await expectSaved(await putPassengers(ctx, id, withPassenger(2, { email: `${'a'.repeat(38)}@example.com` })));
  });

  it.each([
    ['letters', '+56 9 ABCD 5678'],
    ['7 characters', '1234567'],
    ['21 characters', '1'.repeat(21)],
  ])('a phone with %s → 400 on phone', async (_what, phone) => {
    await expectFieldError(withPassenger(0, { phone }), 'passangers.0.phone', m.phone);
  });

  it('phones of 8 and 20 characters of digits, spaces, + ( ) - are accepted', async () => {
    const body = withPassenger(0, { phone: '22345678' }, withPassenger(1, { phone: '+54 (11) 4321-567890' }));
    await expectSaved(await putPassengers(ctx, id, body));
  });

  it('every problem is reported at once, one { field, code, message } each', async () => {
    const body = withPassenger(
      0,
      { document: { type: DocumentType.rut, id: wrongRut } },
      withPassenger(1, { email: 'diego@' }),
    );
    expectInvalid(await putPassengers(ctx, id, body), url(id), [
      { field: 'passangers.0.document.id', ...m.invalidRut },
      { field: 'passangers.1.email', ...m.emailFormat },
    ]);
  });

  it('missing fields → «Campo Obligatorio» for each', async () => {
    const { email: _email, phone: _phone, ...incomplete } = passenger();
    const answer = await putPassengers(ctx, id, { ...passengersBody(), passangers: [incomplete] });
    expectInvalid(answer, url(id), [
      { field: 'passangers.0.email', ...m.required },
      { field: 'passangers.0.phone', ...m.required },
    ]);
  });

  it('an empty list of passengers → 400 on passangers', async () => {
    await expectFieldError(passengersBody({ passangers: [] }), 'passangers', m.list);
  });
});

describeOnEachDatabase('passengers: rules of the quotation', (ctx) => {
  let id = '';
  beforeAll(async () => {
    id = await createQuotation(ctx);
  });

  it('fewer travellers than quoted → 400 on passangers with the count expected', async () => {
    const body = passengersBody();
    body.passangers = body.passangers.slice(0, 2);
    expectInvalid(await putPassengers(ctx, id, body), url(id), [{ field: 'passangers', ...m.passengerCount(3) }]);
  });

  it('more travellers than quoted → 400 on passangers', async () => {
    const body = passengersBody();
    body.passangers = [...body.passangers, passenger({ firstName: 'Tomás' })];
    expectInvalid(await putPassengers(ctx, id, body), url(id), [{ field: 'passangers', ...m.passengerCount(3) }]);
  });

  it('three travellers of type 1 for 2 × type 1 + 1 × type 2 → La edad no corresponde… on the extra one', async () => {
    expectInvalid(await putPassengers(ctx, id, withPassenger(2, { birthDate: bornAged(40) })), url(id), [
      { field: 'passangers.2.birthDate', ...m.ageMismatch },
    ]);
  });

  it('a traveller of a band the quotation does not have (85+) → La edad no corresponde…', async () => {
    expectInvalid(await putPassengers(ctx, id, withPassenger(2, { birthDate: bornAged(90) })), url(id), [
      { field: 'passangers.2.birthDate', ...m.ageMismatch },
    ]);
  });

  it('an age in no band at all (130) → La edad no corresponde…, even with the wrong count', async () => {
    const body = withPassenger(0, { birthDate: bornAged(130) });
    body.passangers = body.passangers.slice(0, 2);
    expectInvalid(await putPassengers(ctx, id, body), url(id), [
      { field: 'passangers', ...m.passengerCount(3) },
      { field: 'passangers.0.birthDate', ...m.ageMismatch },
    ]);
  });

  it('the travellers may come in any order of bands', async () => {
    const body = passengersBody();
    body.passangers = [body.passangers[2], body.passangers[1], body.passangers[0]] as Passenger[];
    await expectSaved(await putPassengers(ctx, id, body));
    const saved = (await get(ctx.app, url(id))).json<{ passangers: { passengerTypeId: number }[] }>();
    expect(saved.passangers.map((p) => p.passengerTypeId)).toStrictEqual([2, 1, 1]);
  });

  it("a country outside the quotation's region (Estados Unidos for Europa) → 400 on countryDestination", async () => {
    const answer = await putPassengers(ctx, id, passengersBody({ countryDestination: europe.unitedStates }));
    expectInvalid(answer, url(id), [{ field: 'countryDestination', ...m.countryOutsideRegion }]);
  });

  it('a country that does not exist → 400 on countryDestination', async () => {
    const answer = await putPassengers(ctx, id, passengersBody({ countryDestination: 9999 }));
    expectInvalid(answer, url(id), [{ field: 'countryDestination', ...m.countryOutsideRegion }]);
  });

  it('a country of the region (Francia for Europa) is accepted and stored', async () => {
    await expectSaved(await putPassengers(ctx, id, passengersBody({ countryDestination: europe.france })));
    expect((await get(ctx.app, url(id))).json()).toMatchObject({ countryDestination: europe.france });
  });
});

describeOnEachDatabase('passengers: a rejected write changes nothing', (ctx) => {
  it('after a refused PUT the travellers, contact and country are the ones saved before', async () => {
    const id = await createQuotation(ctx);
    const first = passengersBody();
    await expectSaved(await putPassengers(ctx, id, first));
    const refused = passengersBody({
      shareEmergencyContact: true,
      emergencyContact: contactOf('Ana'),
      countryDestination: europe.unitedStates,
    });
    refused.passangers = refused.passangers.map((p) => ({ ...p, firstName: 'Otro' }));
    expect((await putPassengers(ctx, id, refused)).status).toBe(400);
    expect((await putDetail(ctx, id, detailRows(null, [{ seq: 2 }]))).status).toBe(400);
    expect((await get(ctx.app, url(id))).json()).toStrictEqual(expectedPassengers(first, [1, 1, 2]));
  });

  it('PUTs at the same time all succeed and leave one whole set of travellers', async () => {
    const id = await createQuotation(ctx);
    const bodies = Array.from({ length: 8 }, (_, n) => {
      const body = passengersBody({ countryDestination: n % 2 === 0 ? europe.spain : europe.france });
      body.passangers = body.passangers.map((p) => ({ ...p, lastName: `Apellido ${n}` }));
      return body;
    });
    const answers = await Promise.all(bodies.map((body) => putPassengers(ctx, id, body)));
    expect(answers.map((answer) => answer.status)).toStrictEqual(bodies.map(() => 204));
    const saved = (await get(ctx.app, url(id))).json();
    expect(bodies.map((body) => expectedPassengers(body, [1, 1, 2]))).toContainEqual(saved);
  });

  it('a write that fails in the database midway leaves the previous travellers and columns in place', async () => {
    const id = await createQuotation(ctx);
    const first = passengersBody();
    await expectSaved(await putPassengers(ctx, id, first));
    const before = await listTravellers(ctx.database.db, id);
    const row = {
      seq: 1,
      passengerTypeId: 1,
      firstName: 'Otro',
      lastName: 'Otro',
      gender: 'F',
      birthDate: bornAged(30),
      nationalityId: 9,
      documentType: 1,
      documentNumber: rutA,
      email: 'otro@example.cl',
      phone: '22345678',
      contactFirstName: 'Ana',
      contactLastName: 'Soto',
      contactPhone: '22345678',
    };
    // The second row repeats seq 1: the insert fails after the delete has run, inside the transaction.
    await expect(
      replaceTravellers(
        ctx.database.db,
        lockPurchase,
        id,
        {
          shareEmergencyContact: true,
          emergencyFirstName: 'Ana',
          emergencyLastName: 'Soto',
          emergencyPhone: '22345678',
          countryDestinationId: europe.france,
        },
        [row, row],
      ),
    ).rejects.toThrow();
    expect(await listTravellers(ctx.database.db, id)).toStrictEqual(before);
    expect((await get(ctx.app, url(id))).json()).toStrictEqual(expectedPassengers(first, [1, 1, 2]));
  });
});

describeOnEachDatabase('passengers: after payment', (ctx) => {
  it('while the sale is pending the travellers can still change; the legacy rows carry the sale id', async () => {
    const id = await createQuotation(ctx, { planId: 411 });
    const saleId = await insertSale(ctx, id, 'pending');
    await expectSaved(await putPassengers(ctx, id, passengersBody()));
    const rows = (await get(ctx.app, url(id, 'passangers-detail'))).json<DetailRow[]>();
    expect(rows.map((row) => row.idVenta)).toStrictEqual([saleId, saleId, saleId]);
  });

  it('once the sale is paid both PUTs are refused (400, La compra ya fue pagada…) and nothing changes', async () => {
    const id = await createQuotation(ctx, { planId: 411 });
    const first = passengersBody();
    await expectSaved(await putPassengers(ctx, id, first));
    await insertSale(ctx, id, 'paid');
    const refused = { field: 'quotationId', ...m.alreadyPaid };
    expectInvalid(await putPassengers(ctx, id, passengersBody({ countryDestination: europe.france })), url(id), [
      refused,
    ]);
    expectInvalid(await putDetail(ctx, id, detailRows(411)), url(id, 'passangers-detail'), [refused]);
    expect((await get(ctx.app, url(id))).json()).toStrictEqual(expectedPassengers(first, [1, 1, 2]));
  });

  it('the write itself re-reads the sale in its transaction: paid in between → nothing written', async () => {
    const id = await createQuotation(ctx, { planId: 411 });
    await insertSale(ctx, id, 'paid');
    const outcome = await replaceTravellers(
      ctx.database.db,
      lockPurchase,
      id,
      {
        shareEmergencyContact: false,
        emergencyFirstName: null,
        emergencyLastName: null,
        emergencyPhone: null,
        countryDestinationId: europe.spain,
      },
      [],
    );
    expect(outcome).toStrictEqual({ refused: 'paid' });
    const [row] = await ctx.database.db.select().from(quotations).where(eq(quotations.id, id));
    expect(row?.countryDestinationId).toBeNull();
  });
});

describeOnEachDatabase('passengers: legacy row shape (passangers-detail)', (ctx) => {
  it('PUT then GET: the rows sent, in seq order, with traveller id, sale null, the plan and status active', async () => {
    const id = await createQuotation(ctx, { planId: 411 });
    const rows = detailRows(411);
    // Sent out of order: seq decides.
    await expectSaved(await putDetail(ctx, id, [rows[2], rows[0], rows[1]]));
    const answer = await get(ctx.app, url(id, 'passangers-detail'));
    expect(answer.status).toBe(200);
    const saved = answer.json<DetailRow[]>();
    expect(saved.map(({ idPassengerDetail: _id, ...row }) => row)).toStrictEqual(
      rows.map((row) => ({ ...row, idVenta: null, status: 'active' })),
    );
    const stored = await listTravellers(ctx.database.db, id);
    expect(saved.map((row) => row.idPassengerDetail)).toStrictEqual(stored.map((t) => t.id));
  });

  it('the same travellers read through the other shape: per-passenger contacts, country idCountry', async () => {
    const id = await createQuotation(ctx);
    await expectSaved(await putDetail(ctx, id, detailRows(null)));
    expect((await get(ctx.app, url(id))).json()).toStrictEqual(expectedPassengers(passengersBody(), [1, 1, 2]));
    const legacy = (await get(ctx.app, url(id, 'passangers-detail'))).json<DetailRow[]>();
    expect(legacy.map((row) => row.idProducto)).toStrictEqual([null, null, null]);
  });

  it('saved through passangers, read as rows: same travellers', async () => {
    const id = await createQuotation(ctx, { planId: 411 });
    await expectSaved(await putPassengers(ctx, id, passengersBody()));
    const legacy = (await get(ctx.app, url(id, 'passangers-detail'))).json<DetailRow[]>();
    expect(legacy.map(({ idPassengerDetail: _id, ...row }) => row)).toStrictEqual(
      detailRows(411).map((row) => ({ ...row, idVenta: null, status: 'active' })),
    );
  });

  it('GET before any PUT answers an empty list', async () => {
    const id = await createQuotation(ctx);
    const answer = await get(ctx.app, url(id, 'passangers-detail'));
    expect(answer.status).toBe(200);
    expect(answer.json()).toStrictEqual([]);
  });

  it('the field rules apply, named by row: RUT, DNI, contact, e-mail', async () => {
    const id = await createQuotation(ctx);
    const rows = detailRows(null, [
      { identification: wrongRut },
      { identification: 'X12' },
      { phoneContact: 'x', email: 'no' },
    ]);
    expectInvalid(await putDetail(ctx, id, rows), url(id, 'passangers-detail'), [
      { field: '0.identification', ...m.invalidRut },
      { field: '1.identification', ...m.invalidDni },
      { field: '2.phoneContact', ...m.phone },
      { field: '2.email', ...m.emailFormat },
    ]);
  });

  it('the contact of each row is required', async () => {
    const id = await createQuotation(ctx);
    const { nameContact: _name, ...withoutContact } = detailRows(null)[1] as DetailRow;
    const rows = detailRows(null);
    rows[1] = withoutContact as DetailRow;
    expectInvalid(await putDetail(ctx, id, rows), url(id, 'passangers-detail'), [
      { field: '1.nameContact', ...m.required },
    ]);
  });

  it('seq must run 1…n without repeats; idCountry must be the same on every row', async () => {
    const id = await createQuotation(ctx);
    const rows = detailRows(null, [{}, { seq: 1 }, { idCountry: europe.france }]);
    expectInvalid(await putDetail(ctx, id, rows), url(id, 'passangers-detail'), [
      { field: '1.seq', ...m.seq(3) },
      { field: '2.idCountry', ...m.sameCountry },
    ]);
  });

  it('the quotation rules apply: band mismatch, passenger type, plan and country', async () => {
    const id = await createQuotation(ctx, { planId: 411 });
    const adult = passengersBody().passangers[0] as Passenger;
    const rows = detailRows(411, [{ idPassangerType: 2 }, {}, { dob: adult.birthDate, idProducto: 410 }]).map(
      (row) => ({ ...row, idCountry: europe.unitedStates }),
    );
    expectInvalid(await putDetail(ctx, id, rows), url(id, 'passangers-detail'), [
      { field: '0.idPassangerType', ...m.passengerTypeMismatch },
      { field: '2.dob', ...m.ageMismatch },
      { field: '2.idPassangerType', ...m.passengerTypeMismatch },
      { field: '2.idProducto', ...m.planMismatch },
      { field: '0.idCountry', ...m.countryOutsideRegion },
    ]);
  });

  it('a count different from the quotation → 400 on the body', async () => {
    const id = await createQuotation(ctx);
    const rows = detailRows(null).slice(0, 2);
    expectInvalid(await putDetail(ctx, id, rows), url(id, 'passangers-detail'), [
      { field: 'body', ...m.passengerCount(3) },
    ]);
  });
});

describeOnEachDatabase('passengers: unknown and malformed quotations', (ctx) => {
  it.each(['passangers', 'passangers-detail'])('GET and PUT …/%s of an unknown quotation → 404', async (suffix) => {
    const target = url(unknownId, suffix);
    expectError(await get(ctx.app, target), 404, errorMessages.resourceNotFound, target);
    const body = suffix === 'passangers' ? passengersBody() : detailRows(null);
    const answer = await call(ctx.app, { method: 'PUT', url: target, payload: body as never });
    expectError(answer, 404, errorMessages.resourceNotFound, target);
  });

  it.each(['passangers', 'passangers-detail'])(
    'a malformed quotation id on …/%s → 400 on quotationId',
    async (suffix) => {
      const target = url('not-a-uuid', suffix);
      const expected = [{ field: 'quotationId', ...m.quotationId }];
      expectInvalid(await get(ctx.app, target), target, expected);
      const body = suffix === 'passangers' ? passengersBody() : detailRows(null);
      expectInvalid(await call(ctx.app, { method: 'PUT', url: target, payload: body as never }), target, expected);
    },
  );

  it('saving travellers leaves the quotation itself as it was', async () => {
    const id = await createQuotation(ctx);
    const before = await readQuotation(ctx, id);
    await expectSaved(await putPassengers(ctx, id, passengersBody()));
    expect(await readQuotation(ctx, id)).toStrictEqual(before);
    const [row] = await ctx.database.db.select().from(quotations).where(eq(quotations.id, id));
    expect(row).toMatchObject({ shareEmergencyContact: false, emergencyFirstName: null, countryDestinationId: 17 });
  });
});
