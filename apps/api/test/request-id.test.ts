import { errorMessages } from '@travesia/domain/messages';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '#app/app.ts';
import { requestIdPattern } from '#app/observability/request-id.ts';
import { inProcessFetch } from '#app/web.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { call, expectError } from './support/http.ts';

/** Request ids (observability/request-id.ts): on every answer, every log line of a request and every §8 body. */

describeOnEachDatabase('request ids', (ctx) => {
  const logged = { lines: [] as string[], app: undefined as unknown as FastifyInstance };
  beforeAll(async () => {
    logged.app = await buildApp({
      config: ctx.config,
      db: ctx.database.db,
      logger: { level: 'info', stream: { write: (line: string) => logged.lines.push(line) } },
    });
    await logged.app.ready();
  });
  afterAll(() => logged.app?.close());
  const linesOf = (id: string) =>
    logged.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.reqId === id);

  it('a §8 body carries the id of its X-Request-Id header, and the request log line the same id', async () => {
    const url = '/api/quotations/1/00000000-0000-4000-8000-000000000000';
    const answer = await call(logged.app, { method: 'GET', url });
    expectError(answer, 404, errorMessages.resourceNotFound, url);
    const id = String(answer.headers['x-request-id']);
    expect(id).toMatch(requestIdPattern);
    expect(linesOf(id)).toContainEqual(expect.objectContaining({ msg: 'request', status: 404 }));
  });

  it('a sane incoming X-Request-Id (a proxy’s) is kept, in the header, the body and the log', async () => {
    const id = 'lb-7f3a9c2e-0001';
    const answer = await call(logged.app, { method: 'GET', url: '/api/nothing-here', headers: { 'x-request-id': id } });
    expect(answer.headers['x-request-id']).toBe(id);
    expect(answer.json()).toMatchObject({ status: 404, requestId: id });
    expect(linesOf(id)).toContainEqual(expect.objectContaining({ msg: 'request', route: '/api/*' }));
  });

  it('a malicious or malformed X-Request-Id is replaced by an id of our own', async () => {
    const bad = [
      'x',
      'a\nfake log line',
      '<script>alert(1)</script>',
      'visitor@example.cl',
      '../../etc/passwd',
      'a'.repeat(65),
      '"}, "level": 60, "msg": "forged',
    ];
    for (const given of bad) {
      const answer = await call(logged.app, {
        method: 'GET',
        url: '/api/nothing-here',
        headers: { 'x-request-id': given },
      });
      const id = String(answer.headers['x-request-id']);
      expect(id, given).not.toBe(given);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(answer.json()).toMatchObject({ requestId: id });
    }
    expect(logged.lines.join('\n')).not.toContain('visitor@example.cl');
  });

  it('a successful answer names its id too (header only: the body is the route’s own)', async () => {
    const answer = await call(logged.app, { method: 'GET', url: '/api/companies/1' });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-request-id']).toMatch(requestIdPattern);
    expect(answer.json()).not.toHaveProperty('requestId');
  });

  it("the storefront's in-process API calls carry the page's request id into the API's log lines", async () => {
    const pageId = 'page-0f1e2d3c4b5a';
    const apiFetch = inProcessFetch(logged.app, '127.0.0.1', undefined, pageId);
    const answer = await apiFetch('http://in-process/api/companies/1');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-request-id')).toBe(pageId);
    expect(linesOf(pageId)).toContainEqual(
      expect.objectContaining({ msg: 'request', route: '/api/companies/:companyId', status: 200 }),
    );
  });
});
