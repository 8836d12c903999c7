import { errorMessages, parameterMustBeDefined } from '@travesia/domain/messages';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#app/app.ts';
import { loadConfig } from '#app/config.ts';
import type { Database } from '#app/db/client.ts';
import { databaseKinds, describeOnEachDatabase, openTestDatabase } from './support/harness.ts';
import {
  anyRequestId,
  call,
  companyGetPaths,
  expectBadRequest,
  expectError,
  expectNoInternals,
  get,
  pathOf,
} from './support/http.ts';

const internalErrorCalls = [
  { method: 'GET', url: '/api/companies/1' },
  { method: 'GET', url: '/api/companies/1/footer' },
  { method: 'GET', url: '/api/companies/1/website-parameters' },
  { method: 'GET', url: '/api/companies/1/exchange-rate?amount=100' },
  { method: 'GET', url: '/api/companies/1/contacts?isEmergencyOrSaleContact=true' },
  { method: 'GET', url: '/api/companies/1/destinations/3/countries' },
  { method: 'POST', url: '/api/companies/1/subscriptions', payload: { email: 'ana@example.cl' } },
] as const;

async function expectInternalErrors(app: FastifyInstance) {
  for (const request of internalErrorCalls) {
    const answer = await call(app, request);
    expect(answer.status, `${request.method} ${request.url}`).toBe(500);
    expect(answer.json()).toStrictEqual({
      status: 500,
      detail: 'Internal error',
      instance: pathOf(request.url),
      errors: [],
      requestId: anyRequestId,
    });
  }
}

describeOnEachDatabase('error bodies', (ctx) => {
  it.each([
    ['GET', '/api/nope'],
    ['GET', '/api/companies'],
    ['GET', '/api/companies/1/unknown-thing'],
    ['POST', '/api/anything/at/all?x=1'],
    ['DELETE', '/api/companies/1/footer'],
    ['PUT', '/api/companies/1/subscriptions'],
  ])('%s %s (no such API route) → 404 Resource not found with the error body', async (method, url) => {
    const answer = await call(ctx.app, { method: method as 'GET', url });
    expectError(answer, 404, errorMessages.resourceNotFound, pathOf(url));
  });

  it.each([
    '/api/companies//footer',
    '/api/companies//modalities',
    '/api/companies//exchange-rate?amount=100',
    '/api/companies//contacts?isEmergencyOrSaleContact=true',
  ])("an empty company id (%s) → 400 The parameter 'companyId' must be defined.", async (url) => {
    const answer = await get(ctx.app, url);
    expect(answer.status).toBe(400);
    const detail = "The parameter 'companyId' must be defined.";
    expect(parameterMustBeDefined('companyId')).toBe(detail);
    expect(answer.json()).toStrictEqual({
      status: 400,
      detail,
      instance: pathOf(url),
      errors: [{ field: 'companyId', code: 'required', message: detail }],
      requestId: anyRequestId,
    });
  });

  it('a missing required parameter is reported before an unknown company', async () => {
    const url = '/api/companies/999/exchange-rate';
    const answer = await get(ctx.app, url);
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject({ detail: parameterMustBeDefined('amount'), instance: url });
  });

  it('no error answer carries a stack trace or SQL', async () => {
    const failing = [
      ...companyGetPaths(999),
      ...companyGetPaths('abc'),
      '/api/companies/1/exchange-rate?amount=abc',
      '/api/companies/1/contacts?isEmergencyOrSaleContact=maybe',
      '/api/companies/1/destinations/999',
      '/api/companies/1/destinations/99999999999999999999/countries',
      '/api/nope',
    ];
    for (const url of failing) {
      const answer = await get(ctx.app, url);
      expect(answer.status, url).toBeGreaterThanOrEqual(400);
      expect(answer.status, url).toBeLessThan(500);
      expectNoInternals(answer.text);
      expect(Object.keys(answer.json<object>()).sort(), url).toStrictEqual([
        'detail',
        'errors',
        'instance',
        'requestId',
        'status',
      ]);
    }
  });

  it.each([
    ['/api/companies/%zz/footer', 'invalid_format'],
    ['/api/quotations/1/%ED%A0%80', 'invalid_format'],
  ])(
    'a path Fastify cannot route (%s) → 400 Invalid input parameters naming the path (issue #11)',
    async (url, code) => {
      const answer = await get(ctx.app, url);
      const errors = expectBadRequest(answer, errorMessages.invalidInputParameters, url);
      expect(errors.map((error) => [error.field, error.code])).toStrictEqual([['path', code]]);
    },
  );

  it('a company id beyond the integer range is a 404, not a database error', async () => {
    const url = '/api/companies/99999999999999999999/footer';
    expectError(await get(ctx.app, url), 404, errorMessages.companyNotFound, url);
  });

  it('the checks for stack traces and SQL do catch them', () => {
    expect(() => expectNoInternals('Error: boom\n    at buildApp (file:///work/app.ts:12:3)')).toThrow();
    expect(() => expectNoInternals('at async Promise.all (node:internal/process:1:2)')).toThrow();
    expect(() => expectNoInternals('Failed query: select "id" from "companies" where "id" = $1')).toThrow();
    expect(() => expectNoInternals('{"detail":"Resource not found"}')).not.toThrow();
  });
});

for (const kind of databaseKinds) {
  describe(`internal errors on a ${kind} database that has been closed`, () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      const database = await openTestDatabase(kind);
      await database.close();
      app = await buildApp({ config: loadConfig({ NODE_ENV: 'test' }), db: database.db });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
    });

    it('every call answers 500 Internal error with the error body, without stack or SQL', async () => {
      await expectInternalErrors(app);
    });

    it('validation still answers 400 before the database is touched', async () => {
      const url = '/api/companies/1/exchange-rate';
      const answer = await get(app, url);
      expect(answer.status).toBe(400);
      expect(answer.json()).toMatchObject({ detail: parameterMustBeDefined('amount') });
    });
  });
}

describe('internal errors on a database whose queries fail with SQL in the message', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    const fail = () => {
      throw new Error('Failed query: select "id", "name" from "companies" where "companies"."id" = $1');
    };
    const db = { select: fail, selectDistinct: fail, insert: fail, transaction: fail } as unknown as Database;
    app = await buildApp({ config: loadConfig({ NODE_ENV: 'test' }), db });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('every call answers 500 Internal error, and neither the SQL nor the stack reaches the client', async () => {
    await expectInternalErrors(app);
  });
});
