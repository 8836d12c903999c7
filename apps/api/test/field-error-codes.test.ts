import { readFile } from 'node:fs/promises';
import { tripDateMessages } from '@travesia/domain/dates';
import { fieldErrorCodes } from '@travesia/domain/field-errors';
import { errorMessages, parameterMustBeDefined } from '@travesia/domain/messages';
import { ageMismatch, alreadyPaid, ruleMessages } from '@travesia/domain/rules';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { payments, sales } from '#app/db/schema.ts';
import { nulCharacterMessage } from '#app/lib/http/nul-guard.ts';
import { confirmingMessage } from '#app/modules/quotations/purchase-lock.ts';
import {
  givenConsents,
  passengersBody,
  postPayment,
  putPassengers,
  readyToPay,
  startPayment,
} from './support/checkout.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { type Answer, call, expectBadRequest, get } from './support/http.ts';
import {
  annualDates,
  createQuotation,
  inDays,
  putQuotation,
  quotationBody,
  searchParams,
  searchPlans,
} from './support/trips.ts';

/**
 * Spec §8 field errors carry a machine code beside the Spanish message. These prove the codes of the rules that need
 * stored data (the quotation, the catalogue, the sale), which the storefront cannot check alone, and the codes of
 * the error handler's own answers; the shared field rules are proven against both sides in
 * packages/domain/src/rules.test.ts.
 */

type Expected = { field: string; code: string; message: string };

const errorsOf = (answer: Answer, detail: string, instance: string) =>
  expectBadRequest(answer, detail, instance).map(({ field, code, message }) => ({ field, code, message }));

const passengersUrl = (id: string) => `/api/quotations/${id}/passangers`;

describeOnEachDatabase('field error codes: rules that need the quotation', (ctx) => {
  it('a traveller whose age fits no quoted band → age_mismatch, the message the storefront shows too', async () => {
    const id = await createQuotation(ctx);
    const body = passengersBody();
    const senior = body.passangers[2];
    if (senior) senior.birthDate = inDays(-365 * 30);
    const errors = errorsOf(await putPassengers(ctx, id, body), errorMessages.invalidInputs, passengersUrl(id));
    expect(errors).toStrictEqual<Expected[]>([{ field: 'passangers.2.birthDate', ...ageMismatch }]);
    expect(ageMismatch).toStrictEqual({ code: 'age_mismatch', message: ruleMessages.ageMismatch });
  });

  it('fewer travellers than quoted → count_mismatch on passangers', async () => {
    const id = await createQuotation(ctx);
    const body = passengersBody();
    body.passangers = body.passangers.slice(0, 2);
    const errors = errorsOf(await putPassengers(ctx, id, body), errorMessages.invalidInputs, passengersUrl(id));
    expect(errors.map(({ field, code }) => ({ field, code }))).toStrictEqual([
      { field: 'passangers', code: 'count_mismatch' },
    ]);
  });

  it('a country outside the region → country_outside_region', async () => {
    const id = await createQuotation(ctx);
    const answer = await putPassengers(ctx, id, { ...passengersBody(), countryDestination: 10 });
    const errors = errorsOf(answer, errorMessages.invalidInputs, passengersUrl(id));
    expect(errors.map(({ field, code }) => ({ field, code }))).toStrictEqual([
      { field: 'countryDestination', code: 'country_outside_region' },
    ]);
  });
});

describeOnEachDatabase('field error codes: the trip against the catalogue and the modality', (ctx) => {
  const search = (overrides: Parameters<typeof searchParams>[0]) => searchPlans(ctx, searchParams(overrides));
  const instance = '/api/1/plans';

  it.each([
    ['a departure before today', 'departureDate', 'departure_in_past', { departureDate: inDays(-1) }],
    [
      'a departure over a year ahead',
      'departureDate',
      'departure_too_far',
      { departureDate: inDays(400), returnDate: inDays(405) },
    ],
    [
      'a return before the departure',
      'returnDate',
      'return_before_departure',
      { departureDate: inDays(10), returnDate: inDays(9) },
    ],
    [
      'a single trip over 180 days',
      'returnDate',
      'trip_too_long',
      { departureDate: inDays(10), returnDate: inDays(200) },
    ],
    [
      'an annual return other than departure + 364',
      'returnDate',
      'return_date_fixed',
      { modality: 2, destination: 1, passengers: '1:1', ...annualDates(), returnDate: inDays(20) },
    ],
    ['an origin the company does not sell from', 'origin', 'not_available', { origin: 999 }],
    ['a passenger type the company does not have', 'passengers', 'not_available', { passengers: '9:1' }],
    ['the same passenger type twice', 'passengers', 'duplicate', { passengers: '1:1,1:2' }],
    ['nobody travelling', 'passengers', 'required', { passengers: '1:0' }],
    ['ten passengers', 'passengers', 'too_many', { passengers: '1:5,2:5' }],
    ['passengers not as type:quantity', 'passengers', 'invalid_format', { passengers: 'abc' }],
    ['a date that is not a calendar day', 'departureDate', 'invalid_date', { departureDate: '2027-02-30' }],
  ] as const)('%s → %s: %s', async (_what, field, code, overrides) => {
    const errors = errorsOf(await search(overrides), errorMessages.invalidInputParameters, instance);
    expect(errors.map((error) => ({ field: error.field, code: error.code }))).toContainEqual({ field, code });
  });

  it('the date codes carry the messages the quoter shows (one function, packages/domain/src/dates.ts)', async () => {
    const errors = errorsOf(
      await search({ departureDate: inDays(-1) }),
      errorMessages.invalidInputParameters,
      instance,
    );
    expect(errors).toContainEqual({
      field: 'departureDate',
      code: 'departure_in_past',
      message: tripDateMessages.departureInPast,
    });
  });
});

describeOnEachDatabase('field error codes: a purchase that is paid or being confirmed', (ctx) => {
  it('a paid purchase refuses every change and a second payment with already_paid, one message everywhere', async () => {
    const quotationId = await readyToPay(ctx);
    const payment = await startPayment(ctx, quotationId);
    await ctx.database.db
      .update(sales)
      .set({ status: 'paid', paidAt: new Date() })
      .where(eq(sales.id, payment.idVenta));
    const refused = [{ field: 'quotationId', ...alreadyPaid }];
    const invalid = errorMessages.invalidInputs;
    const trip = await putQuotation(ctx, quotationId, quotationBody({ planId: 411 }));
    expect(errorsOf(trip, invalid, `/api/quotations/1/${quotationId}`)).toStrictEqual(refused);
    const travellers = await putPassengers(ctx, quotationId);
    expect(errorsOf(travellers, invalid, passengersUrl(quotationId))).toStrictEqual(refused);
    const invoice = await call(ctx.app, {
      method: 'POST',
      url: `/api/quotations/${quotationId}/invoice-details`,
      payload: {
        personalInformation: { address: 'a', streetNumber: '1', locality: 'b', province: 'c' },
        generateInvoice: false,
      },
    });
    expect(errorsOf(invoice, invalid, `/api/quotations/${quotationId}/invoice-details`)).toStrictEqual(refused);
    const again = await postPayment(ctx, { quotationId, gatewayId: 'sandbox', consents: givenConsents });
    expect(errorsOf(again, invalid, '/api/payments')).toStrictEqual(refused);
  });

  it('while a payment is being confirmed, changes are refused with payment_confirming', async () => {
    const quotationId = await readyToPay(ctx);
    const payment = await startPayment(ctx, quotationId);
    await ctx.database.db
      .update(payments)
      .set({ status: 'confirming', claimedAt: new Date() })
      .where(eq(payments.id, payment.idTransaction));
    const confirming = [{ field: 'quotationId', code: 'payment_confirming', message: confirmingMessage }];
    const travellers = await putPassengers(ctx, quotationId);
    expect(errorsOf(travellers, errorMessages.invalidInputs, passengersUrl(quotationId))).toStrictEqual(confirming);
    const trip = await putQuotation(ctx, quotationId, quotationBody({ planId: 411 }));
    expect(errorsOf(trip, errorMessages.invalidInputs, `/api/quotations/1/${quotationId}`)).toStrictEqual(confirming);
  });

  it('what is missing before paying is named by code: plan_required, passengers_missing, billing_missing, consent_required', async () => {
    const quotationId = await readyToPay(ctx, { plan: false, passengers: false, invoice: false });
    const errors = errorsOf(
      await postPayment(ctx, { quotationId, gatewayId: 'nope' }),
      errorMessages.invalidInputs,
      '/api/payments',
    );
    expect(errors.map(({ field, code }) => `${field}:${code}`).sort()).toStrictEqual([
      'consents.dataProcessing:consent_required',
      'gatewayId:not_available',
      'quotationId:billing_missing',
      'quotationId:passengers_missing',
      'quotationId:plan_required',
    ]);
  });
});

describeOnEachDatabase("field error codes: the error handler's own answers", (ctx) => {
  it("a missing query parameter → required, with spec §8's message", async () => {
    const answer = await get(ctx.app, '/api/companies/1/exchange-rate');
    const detail = parameterMustBeDefined('amount');
    expect(errorsOf(answer, detail, '/api/companies/1/exchange-rate')).toStrictEqual([
      { field: 'amount', code: 'required', message: detail },
    ]);
  });

  it('a body that is not JSON → invalid_body', async () => {
    const answer = await call(ctx.app, {
      method: 'POST',
      url: '/api/companies/1/subscriptions',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    const errors = errorsOf(answer, errorMessages.invalidInputParameters, '/api/companies/1/subscriptions');
    expect(errors.map(({ field, code }) => ({ field, code }))).toStrictEqual([{ field: 'body', code: 'invalid_body' }]);
  });

  it('a NUL character → invalid_character on the field', async () => {
    const answer = await call(ctx.app, {
      method: 'POST',
      url: '/api/companies/1/subscriptions',
      payload: { email: 'ana\u0000@example.cl' },
    });
    expect(errorsOf(answer, errorMessages.invalidInputParameters, '/api/companies/1/subscriptions')).toStrictEqual([
      { field: 'email', code: 'invalid_character', message: nulCharacterMessage },
    ]);
  });

  it('a malformed quotation id → invalid_format', async () => {
    const answer = await get(ctx.app, '/api/quotations/not-a-uuid/passangers');
    const errors = errorsOf(answer, errorMessages.invalidInputs, '/api/quotations/not-a-uuid/passangers');
    expect(errors.map(({ field, code }) => ({ field, code }))).toStrictEqual([
      { field: 'quotationId', code: 'invalid_format' },
    ]);
  });

  it('a value of the wrong JSON type → invalid_type; a missing one → required', async () => {
    const id = await createQuotation(ctx);
    const { countryDestination: _country, ...noCountry } = passengersBody();
    const answer = await putPassengers(ctx, id, { ...noCountry, shareEmergencyContact: 'sí' });
    const errors = errorsOf(answer, errorMessages.invalidInputs, passengersUrl(id));
    expect(errors.map(({ field, code }) => ({ field, code }))).toStrictEqual([
      { field: 'shareEmergencyContact', code: 'invalid_type' },
      { field: 'countryDestination', code: 'required' },
    ]);
  });
});

describeOnEachDatabase('field error codes: documented', (ctx) => {
  it('the OpenAPI document lists every code, with what it means, on the FieldError of ErrorBody', async () => {
    const document = (await get(ctx.app, '/api/docs')).json<{
      components: {
        schemas: Record<string, { properties: Record<string, { enum?: string[]; description?: string }> }>;
      };
    }>();
    const code = document.components.schemas.FieldError?.properties.code;
    expect(code?.enum).toStrictEqual(Object.keys(fieldErrorCodes));
    for (const [name, meaning] of Object.entries(fieldErrorCodes)) {
      expect(code?.description).toContain(`\`${name}\`: ${meaning}`);
    }
  });

  it("docs/api.md's table lists every code", async () => {
    const apiDocs = await readFile(new URL('../../../docs/api.md', import.meta.url), 'utf8');
    for (const name of Object.keys(fieldErrorCodes)) expect(apiDocs).toContain(`| \`${name}\` |`);
  });
});
