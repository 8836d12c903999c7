import { addDays } from '@travesia/domain/dates';
import { errorMessages, parameterMustBeDefined } from '@travesia/domain/messages';
import { alreadyPaid } from '@travesia/domain/rules';
import { count, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { companies, quotationPassengers, quotations, sales } from '#app/db/schema.ts';
import type { Quotation } from '#app/modules/quotations/schemas.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { anyRequestId, call, expectBadRequest, expectError, get } from './support/http.ts';
import {
  annualDates,
  createQuotation,
  inDays,
  postQuotation,
  putQuotation,
  quotationBody,
  readQuotation,
  tripDates,
} from './support/trips.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const unknownId = '7d8f3a52-1c4b-4e8a-9f0e-2b6c1d3e4f50';

const quotationCount = async (ctx: TestContext) => {
  const [row] = await ctx.database.db.select({ n: count() }).from(quotations);
  return row?.n ?? 0;
};

const redirect = (ctx: TestContext, query: string, companyId: number | string = 1) =>
  call(ctx.app, { method: 'POST', url: `/api/companies/${companyId}/quotation-redirect${query}` });

describeOnEachDatabase('quotations: create and read', (ctx) => {
  it('POST answers 201 with { id } (a UUID) and a Location header naming the new quotation', async () => {
    const answer = await postQuotation(ctx, quotationBody());
    expect(answer.status).toBe(201);
    const body = answer.json<{ id: string }>();
    expect(Object.keys(body)).toStrictEqual(['id']);
    expect(body.id).toMatch(uuidPattern);
    expect(answer.headers.location).toBe(`/api/quotations/1/${body.id}`);
    expect((await get(ctx.app, String(answer.headers.location))).status).toBe(200);
  });

  it('two quotations of the same trip get different ids', async () => {
    const first = await createQuotation(ctx);
    const second = await createQuotation(ctx);
    expect(first).not.toBe(second);
  });

  it('GET answers the stored quotation with the spec field names, passengers by age band, status quoted', async () => {
    const dates = tripDates(10);
    const id = await createQuotation(ctx, {
      ...dates,
      // Typed out of order: the answer lists them by age band.
      passangerTypes: [
        { passengerTypeId: 2, quantity: 1 },
        { passengerTypeId: 1, quantity: 2 },
      ],
      name: 'Camila',
      lastName: 'Rojas',
      phone: '+56 9 1234 5678',
      email: 'camila@example.cl',
      rut: '12.345.678-5',
      domicilio: 'Av. Providencia 1234',
      referralCode: 'amigo-2026',
      pantalla: 'cotizador',
    });
    const answer = await get(ctx.app, `/api/quotations/1/${id}`);
    expect(answer.status).toBe(200);
    expect(answer.json()).toStrictEqual({
      id,
      origin: 1,
      destination: 3,
      modality: 1,
      departureDate: dates.departureDate,
      returnDate: dates.returnDate,
      passangerTypes: [
        { quantity: 2, id: 1, passengerTypeId: 1, ageFrom: 0, ageTo: 74 },
        { quantity: 1, id: 2, passengerTypeId: 2, ageFrom: 75, ageTo: 84 },
      ],
      name: 'Camila',
      lastName: 'Rojas',
      phone: '+56 9 1234 5678',
      email: 'camila@example.cl',
      rut: '12.345.678-5',
      domicilio: 'Av. Providencia 1234',
      discountCode: null,
      upgradeCovid: false,
      company: 1,
      status: 'quoted',
      planId: null,
      referralCode: 'amigo-2026',
      pantalla: 'cotizador',
    });
  });

  it('stores the discount code trimmed and upper-cased, and the covid upgrade asked for', async () => {
    const id = await createQuotation(ctx, { discountCode: '  bienvenida10 ', upgradeCovid: true });
    const quotation = await readQuotation(ctx, id);
    expect(quotation.discountCode).toBe('BIENVENIDA10');
    expect(quotation.upgradeCovid).toBe(true);
  });

  it('an unknown discount code is stored as typed (upper-cased), not refused', async () => {
    const answer = await postQuotation(ctx, quotationBody({ discountCode: 'noexiste' }));
    expect(answer.status).toBe(201);
    expect((await readQuotation(ctx, answer.json<{ id: string }>().id)).discountCode).toBe('NOEXISTE');
  });

  it('a blank discount code is stored as no code', async () => {
    const id = await createQuotation(ctx, { discountCode: '   ' });
    expect((await readQuotation(ctx, id)).discountCode).toBeNull();
  });

  it('a quotation with a plan chosen has status plan-selected and that planId', async () => {
    const id = await createQuotation(ctx, { planId: 411 });
    const quotation = await readQuotation(ctx, id);
    expect(quotation.status).toBe('plan-selected');
    expect(quotation.planId).toBe(411);
  });

  it('accepts the passenger type as `id` (older clients) and stores only the types that travel', async () => {
    const id = await createQuotation(ctx, {
      passangerTypes: [
        { id: 1, quantity: 3 },
        { id: 2, quantity: 0 },
      ],
    });
    expect((await readQuotation(ctx, id)).passangerTypes).toStrictEqual([
      { quantity: 3, id: 1, passengerTypeId: 1, ageFrom: 0, ageTo: 74 },
    ]);
  });

  it('an annual quotation (modality 2) is accepted with the return at departure + 364', async () => {
    const dates = annualDates();
    const id = await createQuotation(ctx, {
      modality: 2,
      destination: 7,
      ...dates,
      passangerTypes: [{ passengerTypeId: 1, quantity: 1 }],
      planId: 414,
    });
    const quotation = await readQuotation(ctx, id);
    expect(quotation).toMatchObject({ modality: 2, destination: 7, ...dates, planId: 414, status: 'plan-selected' });
  });

  it('a departure today is accepted; one 366 days ahead is too far (departureDate)', async () => {
    const today = inDays(0);
    expect((await postQuotation(ctx, quotationBody({ departureDate: today, returnDate: today }))).status).toBe(201);
    const far = inDays(366);
    const errors = expectBadRequest(
      await postQuotation(ctx, quotationBody({ departureDate: far, returnDate: addDays(far, 5) })),
      errorMessages.invalidInputs,
      '/api/quotations/1',
    );
    expect(errors.map((e) => e.field)).toStrictEqual(['departureDate']);
  });

  it('a rejected POST stores nothing', async () => {
    const before = await quotationCount(ctx);
    const answer = await postQuotation(ctx, quotationBody({ planId: 413 }));
    expect(answer.status).toBe(400);
    const { returnDate } = tripDates(10);
    expect((await postQuotation(ctx, quotationBody({ departureDate: inDays(-1), returnDate }))).status).toBe(400);
    expect(await quotationCount(ctx)).toBe(before);
  });

  it.each([
    ['origin', 'origin', { origin: 2 }],
    ['modality', 'modality', { modality: 9 }],
    ['an unknown passenger type', 'passangerTypes', { passangerTypes: [{ passengerTypeId: 9, quantity: 1 }] }],
    [
      'a repeated passenger type',
      'passangerTypes',
      {
        passangerTypes: [
          { passengerTypeId: 1, quantity: 1 },
          { passengerTypeId: 1, quantity: 2 },
        ],
      },
    ],
  ])('POST with a bad %s → 400 Invalid inputs supplied naming %s', async (_what, field, overrides) => {
    const errors = expectBadRequest(
      await postQuotation(ctx, quotationBody(overrides as never)),
      errorMessages.invalidInputs,
      '/api/quotations/1',
    );
    expect(errors.map((e) => e.field)).toContain(field);
  });

  it('POST without the trip fields → 400 Invalid inputs supplied naming each missing field', async () => {
    const errors = expectBadRequest(
      await postQuotation(ctx, { name: 'Camila' }),
      errorMessages.invalidInputs,
      '/api/quotations/1',
    );
    expect(errors.map((e) => e.field)).toEqual(
      expect.arrayContaining(['origin', 'destination', 'modality', 'departureDate', 'returnDate', 'passangerTypes']),
    );
  });

  it('POST for an unknown company → 404 Company not found, nothing stored', async () => {
    const before = await quotationCount(ctx);
    expectError(
      await postQuotation(ctx, quotationBody(), 999),
      404,
      errorMessages.companyNotFound,
      '/api/quotations/999',
    );
    expect(await quotationCount(ctx)).toBe(before);
  });

  it('GET with a malformed id → 400 Invalid quotation id supplied', async () => {
    const answer = await get(ctx.app, '/api/quotations/1/not-a-uuid');
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject({
      status: 400,
      detail: errorMessages.invalidQuotationId,
      instance: '/api/quotations/1/not-a-uuid',
    });
  });

  it('GET with an unknown id → 404 Resource not found', async () => {
    const url = `/api/quotations/1/${unknownId}`;
    expectError(await get(ctx.app, url), 404, errorMessages.resourceNotFound, url);
  });

  it.each(['999', '0', 'abc'])('GET under company %s → 404 Company not found', async (companyId) => {
    const id = await createQuotation(ctx);
    const url = `/api/quotations/${companyId}/${id}`;
    expectError(await get(ctx.app, url), 404, errorMessages.companyNotFound, url);
  });

  it("another company's quotation is not found (404 Resource not found)", async () => {
    const id = await createQuotation(ctx);
    await ctx.database.db
      .insert(companies)
      .values({ id: 2, name: 'Otra', legalName: 'Otra SpA', rut: '76.543.210-3', address: 'Santiago' });
    const url = `/api/quotations/2/${id}`;
    expectError(await get(ctx.app, url), 404, errorMessages.resourceNotFound, url);
    await ctx.database.db.delete(companies).where(eq(companies.id, 2));
  });
});

describeOnEachDatabase('quotations: update', (ctx) => {
  let id: string;
  let original: Quotation;

  beforeAll(async () => {
    id = await createQuotation(ctx, { name: 'Felipe', email: 'felipe@example.cl' });
    original = await readQuotation(ctx, id);
  });

  /** Each rejected PUT must leave the quotation exactly as it was. */
  const expectUnchanged = async () => {
    expect(await readQuotation(ctx, id)).toStrictEqual(original);
  };

  it.each([
    ['a return before the departure', 'returnDate', () => ({ ...tripDates(10), returnDate: inDays(9) })],
    ['a departure in the past', 'departureDate', () => ({ departureDate: inDays(-1), returnDate: inDays(5) })],
    [
      'an annual trip returning other than departure + 364',
      'returnDate',
      () => ({ modality: 2, destination: 1, passangerTypes: [{ passengerTypeId: 1, quantity: 1 }], ...tripDates(30) }),
    ],
    [
      'a destination not sold for the modality (Europe, annual)',
      'destination',
      () => ({ modality: 2, destination: 3, passangerTypes: [{ passengerTypeId: 1, quantity: 1 }], ...annualDates() }),
    ],
    [
      'zero passengers',
      'passangerTypes',
      () => ({
        passangerTypes: [
          { passengerTypeId: 1, quantity: 0 },
          { passengerTypeId: 2, quantity: 0 },
        ],
      }),
    ],
    [
      'more than 9 passengers (9 + 1)',
      'passangerTypes',
      () => ({
        passangerTypes: [
          { passengerTypeId: 1, quantity: 9 },
          { passengerTypeId: 2, quantity: 1 },
        ],
      }),
    ],
    ['the Senior plan (413) for a group with adults', 'planId', () => ({ planId: 413 })],
    ['the annual plan (414) on a single trip', 'planId', () => ({ planId: 414 })],
    ['a long stay (modality 3) shorter than its 61 days', 'returnDate', () => ({ modality: 3, ...tripDates(60) })],
  ])('PUT with %s → 400 Invalid inputs supplied naming %s, and nothing changes', async (_what, field, change) => {
    const url = `/api/quotations/1/${id}`;
    const answer = await putQuotation(ctx, id, quotationBody({ ...change(), name: 'Cambiado' } as never));
    const errors = expectBadRequest(answer, errorMessages.invalidInputs, url);
    expect(errors.map((e) => e.field)).toStrictEqual([field]);
    await expectUnchanged();
  });

  it('PUT with a single count of 10 passengers → 400 naming the passengers, and nothing changes', async () => {
    const answer = await putQuotation(
      ctx,
      id,
      quotationBody({ passangerTypes: [{ passengerTypeId: 1, quantity: 10 }] }),
    );
    const errors = expectBadRequest(answer, errorMessages.invalidInputs, `/api/quotations/1/${id}`);
    expect(errors.every((e) => e.field.startsWith('passangerTypes'))).toBe(true);
    await expectUnchanged();
  });

  it('PUT of a paid quotation → 400 naming the quotation, and its trip, plan and status stay as paid', async () => {
    const paidId = await createQuotation(ctx, { planId: 411 });
    // Paid is its sale's state (docs/decisions/010-one-owner-of-paid.md): the quotation reads it from there.
    await ctx.database.db.insert(sales).values({
      id: 800_001,
      companyId: 1,
      quotationId: paidId,
      productId: 411,
      amountUsdCents: 10_000,
      amountClp: 94_853,
      status: 'paid',
      paidAt: new Date(),
    });
    const before = await readQuotation(ctx, paidId);
    const answer = await putQuotation(ctx, paidId, quotationBody({ planId: 410, returnDate: inDays(12) }));
    const errors = expectBadRequest(answer, errorMessages.invalidInputs, `/api/quotations/1/${paidId}`);
    expect(errors).toStrictEqual([{ field: 'quotationId', ...alreadyPaid }]);
    expect(await readQuotation(ctx, paidId)).toStrictEqual(before);
    expect(before.status).toBe('paid');
  });

  it('PUT with an unknown id → 404 Resource not found, and creates nothing', async () => {
    const url = `/api/quotations/1/${unknownId}`;
    expectError(await putQuotation(ctx, unknownId, quotationBody()), 404, errorMessages.resourceNotFound, url);
    const rows = await ctx.database.db.select().from(quotations).where(eq(quotations.id, unknownId));
    expect(rows).toStrictEqual([]);
  });

  it('PUT with a malformed id → 400 Invalid quotation id supplied, with a good body or a bad one', async () => {
    const url = '/api/quotations/1/not-a-uuid';
    for (const body of [quotationBody(), {}]) {
      const answer = await putQuotation(ctx, 'not-a-uuid', body);
      expect(answer.status).toBe(400);
      expect(answer.json()).toStrictEqual({
        status: 400,
        detail: errorMessages.invalidQuotationId,
        instance: url,
        errors: [{ field: 'quotationId', code: 'invalid_format', message: expect.any(String) }],
        requestId: anyRequestId,
      });
    }
  });

  it('PUT with a malformed id under a malformed company → 404 Company not found', async () => {
    const url = '/api/quotations/abc/not-a-uuid';
    expectError(await putQuotation(ctx, 'not-a-uuid', quotationBody(), 'abc'), 404, errorMessages.companyNotFound, url);
  });

  it('PUT under an unknown company → 404 Company not found, and nothing changes', async () => {
    const url = `/api/quotations/999/${id}`;
    expectError(await putQuotation(ctx, id, quotationBody(), 999), 404, errorMessages.companyNotFound, url);
    await expectUnchanged();
  });

  it('PUT answers 200 text/plain with the id, and GET shows every field replaced', async () => {
    const dates = tripDates(75, 20);
    const answer = await putQuotation(
      ctx,
      id,
      quotationBody({
        destination: 2,
        modality: 3,
        ...dates,
        passangerTypes: [{ passengerTypeId: 2, quantity: 2 }],
        discountCode: 'verano15',
        upgradeCovid: true,
        planId: 412,
        name: 'Javiera',
        email: 'javiera@example.cl',
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    expect(answer.text).toBe(id);
    const updated = await readQuotation(ctx, id);
    expect(updated).toStrictEqual({
      ...original,
      destination: 2,
      modality: 3,
      departureDate: dates.departureDate,
      returnDate: dates.returnDate,
      // The adults of the first version are gone: the passenger counts are replaced, not merged.
      passangerTypes: [{ quantity: 2, id: 2, passengerTypeId: 2, ageFrom: 75, ageTo: 84 }],
      discountCode: 'VERANO15',
      upgradeCovid: true,
      planId: 412,
      status: 'plan-selected',
      name: 'Javiera',
      email: 'javiera@example.cl',
    });
    const stored = await ctx.database.db
      .select({ passengerTypeId: quotationPassengers.passengerTypeId })
      .from(quotationPassengers)
      .where(eq(quotationPassengers.quotationId, id));
    expect(stored).toStrictEqual([{ passengerTypeId: 2 }]);
    original = updated;
  });

  it('PUT without a plan sets the status back to quoted', async () => {
    const answer = await putQuotation(ctx, id, quotationBody({ planId: 411 }));
    expect(answer.status).toBe(200);
    expect(await readQuotation(ctx, id)).toMatchObject({ planId: 411, status: 'plan-selected' });
    expect((await putQuotation(ctx, id, quotationBody())).status).toBe(200);
    expect(await readQuotation(ctx, id)).toMatchObject({ planId: null, status: 'quoted' });
  });
});

describeOnEachDatabase('quotations: redirect to the comparator', (ctx) => {
  it('answers 301 with Location /comparador/{id}', async () => {
    const id = await createQuotation(ctx);
    const answer = await redirect(ctx, `?quotationId=${id}`);
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe(`/comparador/${id}`);
  });

  it("a missing quotationId → 400 The parameter 'quotationId' must be defined.", async () => {
    const answer = await redirect(ctx, '');
    const detail = parameterMustBeDefined('quotationId');
    expect(detail).toBe("The parameter 'quotationId' must be defined.");
    expect(answer.status).toBe(400);
    expect(answer.json()).toStrictEqual({
      status: 400,
      detail,
      instance: '/api/companies/1/quotation-redirect',
      errors: [{ field: 'quotationId', code: 'required', message: detail }],
      requestId: anyRequestId,
    });
  });

  it('a malformed quotationId → 400 Invalid quotation id supplied', async () => {
    const answer = await redirect(ctx, '?quotationId=123');
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject({ detail: errorMessages.invalidQuotationId });
    expect(answer.headers.location).toBeUndefined();
  });

  it('an unknown quotation → 404 Resource not found, no Location', async () => {
    const answer = await redirect(ctx, `?quotationId=${unknownId}`);
    expectError(answer, 404, errorMessages.resourceNotFound, '/api/companies/1/quotation-redirect');
    expect(answer.headers.location).toBeUndefined();
  });

  it('an unknown company → 404 Company not found', async () => {
    const id = await createQuotation(ctx);
    const answer = await redirect(ctx, `?quotationId=${id}`, 999);
    expectError(answer, 404, errorMessages.companyNotFound, '/api/companies/999/quotation-redirect');
  });
});
