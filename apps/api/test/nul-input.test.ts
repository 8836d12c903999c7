import { errorMessages } from '@travesia/domain/messages';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { quotations } from '#app/db/schema.ts';
import { fieldsWithNul, nulCharacterMessage } from '#app/lib/http/nul-guard.ts';
import { passengersBody, putPassengers } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, expectBadRequest, expectError, get } from './support/http.ts';
import { createQuotation, postQuotation, quotationBody, searchParams, searchUrl } from './support/trips.ts';

/** PostgreSQL text cannot hold U+0000: any input carrying it is a 400 with the route's §8 detail, never a 500. */

const countQuotations = async (ctx: TestContext) => {
  const [row] = await ctx.database.db.select({ count: sql<number>`count(*)::int` }).from(quotations);
  return row?.count ?? 0;
};

describeOnEachDatabase('a NUL character in the input', (ctx) => {
  it('GET /api/1/plans?…&discountCode=%00 → 400 Invalid input parameters naming discountCode', async () => {
    const url = searchUrl(searchParams({ discountCode: '\u0000' }));
    expect(url).toContain('discountCode=%00');
    const errors = expectBadRequest(await get(ctx.app, url), errorMessages.invalidInputParameters, '/api/1/plans');
    expect(errors.map((e) => e.field)).toStrictEqual(['discountCode']);
  });

  it('POST /api/quotations/1 with name "a\\u0000b" → 400 Invalid inputs supplied naming name; nothing stored', async () => {
    const before = await countQuotations(ctx);
    const answer = await postQuotation(ctx, quotationBody({ name: 'a\u0000b' }));
    const errors = expectBadRequest(answer, errorMessages.invalidInputs, '/api/quotations/1');
    expect(errors.map((e) => e.field)).toStrictEqual(['name']);
    expect(await countQuotations(ctx)).toBe(before);
  });

  it('PUT passangers with firstName "Ana\\u0000" → 400 Invalid inputs supplied naming it; nothing stored', async () => {
    const id = await createQuotation(ctx);
    const body = passengersBody();
    const [first] = body.passangers;
    if (first) first.firstName = 'Ana\u0000';
    const url = `/api/quotations/${id}/passangers`;
    const errors = expectBadRequest(await putPassengers(ctx, id, body), errorMessages.invalidInputs, url);
    expect(errors.map((e) => e.field)).toStrictEqual(['passangers.0.firstName']);
    expect((await get(ctx.app, url)).status).toBe(404);
  });

  it('GET /api/payments/sandbox/%00 → 400 Invalid input parameters naming token, the §8 body in JSON', async () => {
    const url = '/api/payments/sandbox/%00';
    const answer = await get(ctx.app, url);
    const errors = expectBadRequest(answer, errorMessages.invalidInputParameters, url);
    expect(errors).toStrictEqual([{ field: 'token', code: 'invalid_character', message: nulCharacterMessage }]);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
  });

  it("a NUL in any path parameter is the route's 400: the sandbox decision, a quotation, a gateway return", async () => {
    const decision = await call(ctx.app, {
      method: 'POST',
      url: '/api/payments/sandbox/sbx_a%00b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'decision=approve&instalments=1',
    });
    const decisionErrors = expectBadRequest(
      decision,
      errorMessages.invalidInputParameters,
      '/api/payments/sandbox/sbx_a%00b',
    );
    expect(decisionErrors.map((e) => e.field)).toStrictEqual(['token']);

    const id = await createQuotation(ctx);
    const quotationUrl = `/api/quotations/1/${id}%00`;
    const quotation = expectBadRequest(
      await get(ctx.app, quotationUrl),
      errorMessages.invalidQuotationId,
      quotationUrl,
    );
    expect(quotation.map((e) => e.field)).toStrictEqual(['quotationId']);

    const returnUrl = '/api/payments/return/sand%00box';
    const back = expectBadRequest(
      await get(ctx.app, `${returnUrl}?token_ws=x`),
      errorMessages.invalidInputParameters,
      returnUrl,
    );
    expect(back.map((e) => e.field)).toStrictEqual(['gatewayId']);
  });

  it("an unknown /api path holding a NUL is still the catalogue's 404", async () => {
    expectError(
      await get(ctx.app, '/api/no-such%00thing'),
      404,
      errorMessages.resourceNotFound,
      '/api/no-such%00thing',
    );
  });

  it('a NUL deep in the body, in a key or in a repeated query parameter is found too', async () => {
    const id = await createQuotation(ctx);
    const body = passengersBody();
    const answer = await putPassengers(ctx, id, {
      ...body,
      emergencyContact: { ...body.emergencyContact, phone: '+56\u0000' },
      'x\u0000': 1,
    });
    const errors = expectBadRequest(answer, errorMessages.invalidInputs, `/api/quotations/${id}/passangers`);
    expect(errors.map((e) => e.field).sort()).toStrictEqual(['emergencyContact.phone', 'x']);
    const repeated = `${searchUrl(searchParams())}&discountCode=A&discountCode=%00`;
    expect((await call(ctx.app, { method: 'GET', url: repeated })).status).toBe(400);
  });
});

describe('fieldsWithNul', () => {
  it('names each string holding U+0000 by its dotted path; clean input names none', () => {
    expect(fieldsWithNul({ a: 'ok', b: ['x', 'y\u0000'], c: { d: '\u0000' } }, 'body')).toStrictEqual(['b.1', 'c.d']);
    expect(fieldsWithNul('a\u0000', 'body')).toStrictEqual(['body']);
    expect(fieldsWithNul({ a: 'ok', n: 1, z: null, t: true }, 'body')).toStrictEqual([]);
    expect(fieldsWithNul(undefined, 'body')).toStrictEqual([]);
  });

  it('walks deeply nested input without recursion', () => {
    let nested: unknown = '\u0000';
    for (let i = 0; i < 50_000; i += 1) nested = [nested];
    expect(fieldsWithNul(nested, 'body')).toHaveLength(1);
  });
});
