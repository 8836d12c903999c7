import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '#app/app.ts';
import { loadConfig } from '#app/config.ts';
import { type DatabaseHandle, openPglite } from '#app/db/client.ts';
import { errorBodySchema } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { fastSerializerOf } from '#app/lib/http/response-serializer.ts';
import { websiteParametersSchema } from '#app/modules/company/routes.ts';
import { comparatorPlanSchema, listingPlanSchema, previewPlanSchema } from '#app/modules/plans/schemas.ts';
import { call, companyGetPaths, get, jsonWithoutRequestId } from './support/http.ts';
import { quotationBody, searchParams, searchUrl } from './support/trips.ts';

/**
 * Issue 10: answers are validated against their zod schema on the way out in tests and development, and only
 * serialized in production mode (npm start's NODE_ENV=production, a production deployment). Both must send the
 * same JSON for every answer the store gives; only a handler that breaks its own schema tells them apart.
 */
describe('response serialization: validated outside production, only serialized in production mode', () => {
  let database: DatabaseHandle;
  let validating: FastifyInstance;
  let production: FastifyInstance;

  /** A route whose handler breaks its schema (a string where a number is declared) and adds a field. */
  const addBadShapeRoute = (app: FastifyInstance) =>
    typed(app).get(
      '/bad-shape',
      { schema: { response: { 200: z.object({ count: z.number() }) } } },
      () => ({ count: '7', secret: 'internal' }) as unknown as { count: number },
    );

  beforeAll(async () => {
    const dump = await readFile(inject('seededPgliteDump'));
    database = await openPglite({ loadDataDir: new Blob([dump]) });
    const env = { NODE_ENV: 'test', RATE_LIMIT_FACTOR: '1000' };
    validating = await buildApp({ config: loadConfig(env), db: database.db });
    production = await buildApp({ config: loadConfig({ ...env, RESPONSE_VALIDATION: 'false' }), db: database.db });
    addBadShapeRoute(validating);
    addBadShapeRoute(production);
    await Promise.all([validating.ready(), production.ready()]);
  });
  afterAll(async () => {
    await validating?.close();
    await production?.close();
    await database?.close();
  });

  it('production mode (NODE_ENV=production or DEPLOYMENT=production) turns validation off; tests and development keep it', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).responseValidation).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).responseValidation).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', DEPLOYMENT: 'local' }).responseValidation).toBe(false);
    expect(
      loadConfig({ NODE_ENV: 'production', DEPLOYMENT: 'local', RESPONSE_VALIDATION: 'true' }).responseValidation,
    ).toBe(true);
  });

  it('a handler that breaks its schema is a 500 when validated, and serialized as declared in production', async () => {
    const checked = await get(validating, '/bad-shape');
    expect(checked.status).toBe(500);
    const served = await get(production, '/bad-shape');
    expect(served.status).toBe(200);
    // fast-json-stringify writes the declared number and nothing undeclared, with no parse.
    expect(served.text).toBe('{"count":7}');
  });

  it('every catalogue answer, a plan search, a quotation and its plans are the same JSON in both modes', async () => {
    const created = await call(validating, { method: 'POST', url: '/api/quotations/1', payload: quotationBody() });
    expect(created.status, created.text).toBe(201);
    const { id } = created.json<{ id: string }>();
    const urls = [
      ...companyGetPaths(1),
      searchUrl(searchParams()),
      searchUrl(searchParams({ discountCode: 'NOPE', upgradeCovid: 'true' })),
      `/api/quotations/1/${id}`,
      `/api/1/plans-quotation/${id}`,
      `/api/1/plans-comparador?quotationId=${id}`,
      '/api/companies/1/blog-posts?pageSize=4',
      '/api/companies/1/legal-pages/terminos',
      // Errors go through the same serializers.
      '/api/companies/999/footer',
      searchUrl(searchParams({ origin: 999 })),
    ];
    for (const url of urls) {
      const [checked, served] = [await get(validating, url), await get(production, url)];
      expect(served.status, url).toBe(checked.status);
      expect(jsonWithoutRequestId(served), url).toStrictEqual(jsonWithoutRequestId(checked));
    }
  });

  it('the hot answers compile to the fast serializer instead of falling back to the validating one', () => {
    for (const schema of [
      websiteParametersSchema,
      z.array(listingPlanSchema),
      z.array(previewPlanSchema),
      z.array(comparatorPlanSchema),
      errorBodySchema,
    ]) {
      expect(fastSerializerOf(schema)).toBeTypeOf('function');
    }
  });
});
