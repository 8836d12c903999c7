import { fieldErrorCodes } from '@travesia/domain/field-errors';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { ErrorBody } from '#app/errors.ts';
import { requestIdPattern } from '#app/observability/request-id.ts';

export type Answer = {
  status: number;
  headers: Record<string, unknown>;
  text: string;
  /** The body parsed as JSON (fails the test when it is not JSON). */
  json<T = unknown>(): T;
};

/** A stack frame as Node prints it: `at fn (file:///…:12:3)`, `at node:internal/…:1:2`, `at /abs/path.js:1:2`. */
const stackFrame = /\bat (?:async )?(?:[^\s()]+ \()?(?:file:|node:|\/)[^\s()]*:\d+:\d+\)?/;
/** SQL as drizzle or the database drivers would leak it. */
const sqlText = /\bselect\b[^"]*"|\binsert into\b|\bdelete from\b|\bfailed query\b|\brelation "|\bsyntax error at\b/i;

/** Asserts a response body leaks neither a stack trace nor SQL (spec §8). */
export function expectNoInternals(text: string): void {
  expect(text, 'response body contains a stack trace').not.toMatch(stackFrame);
  expect(text, 'response body contains SQL').not.toMatch(sqlText);
}

/** Injects a request and checks that whatever comes back carries no stack trace nor SQL. */
export async function call(app: FastifyInstance, options: InjectOptions | string): Promise<Answer> {
  const response = await app.inject(options);
  expectNoInternals(response.body);
  return {
    status: response.statusCode,
    headers: response.headers,
    text: response.body,
    json: <T>() => JSON.parse(response.body) as T,
  };
}

export const get = (app: FastifyInstance, url: string) => call(app, { method: 'GET', url });

/** The request id every §8 body carries (observability/request-id.ts), as it is in the X-Request-Id header. */
export const anyRequestId = expect.stringMatching(requestIdPattern);

/**
 * The answer's text without its own request id (`"requestId":"…"` of a §8 body, the id of its X-Request-Id header):
 * what must be the same byte for byte across two requests, which never share an id.
 */
export function textWithoutRequestId(answer: Answer): string {
  return answer.text.replace(`,"requestId":"${String(answer.headers['x-request-id'])}"`, '');
}

/** The answer's JSON without the request id of a §8 body (which is checked to be the answer's own). */
export function jsonWithoutRequestId(answer: Answer): unknown {
  const body = answer.json();
  if (typeof body !== 'object' || body === null || !('requestId' in body)) return body;
  const { requestId, ...rest } = body as { requestId: unknown };
  expect(requestId).toBe(answer.headers['x-request-id']);
  return rest;
}

/** Asserts the spec §8 error body exactly, with its `errors` list empty, and its request id that of the answer. */
export function expectError(answer: Answer, status: number, detail: string, instance: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const requestId = answer.headers['x-request-id'];
  expect(requestId).toMatch(requestIdPattern);
  expect(answer.json<ErrorBody>()).toStrictEqual({ status, detail, instance, errors: [], requestId });
}

/**
 * Asserts a 400 with the given detail and a non-empty list of field errors, each with a documented code other than
 * the catch-all `invalid` and a message; returns that list.
 */
export function expectBadRequest(answer: Answer, detail: string, instance: string): ErrorBody['errors'] {
  expect(answer.status).toBe(400);
  const body = answer.json<ErrorBody>();
  expect(Object.keys(body).sort()).toStrictEqual(['detail', 'errors', 'instance', 'requestId', 'status']);
  expect(body).toMatchObject({ status: 400, detail, instance, requestId: answer.headers['x-request-id'] });
  expect(body.errors.length).toBeGreaterThan(0);
  for (const error of body.errors) {
    expect(error).toStrictEqual({ field: expect.any(String), code: expect.any(String), message: expect.any(String) });
    expect(Object.keys(fieldErrorCodes), `undocumented code ${error.code}`).toContain(error.code);
    expect(error.code, `a field error of ${error.field} without a specific code`).not.toBe('invalid');
    expect(error.message).not.toBe('');
  }
  return body.errors;
}

/** Every company-scoped GET of spec §7, with the parameters each needs to get past validation. */
export const companyGetPaths = (companyId: string | number) => [
  `/api/companies/${companyId}`,
  `/api/companies/${companyId}/navigation-bar`,
  `/api/companies/${companyId}/footer`,
  `/api/companies/${companyId}/website-parameters`,
  `/api/companies/${companyId}/marketing`,
  `/api/companies/${companyId}/mission`,
  `/api/companies/${companyId}/vision`,
  `/api/companies/${companyId}/origins`,
  `/api/companies/${companyId}/destinations/1`,
  `/api/companies/${companyId}/destinations/3/countries`,
  `/api/companies/${companyId}/modalities`,
  `/api/companies/${companyId}/passanger-types`,
  `/api/companies/${companyId}/exchange-rate?amount=100`,
  `/api/companies/${companyId}/frequently-asked-questions`,
  `/api/companies/${companyId}/subjects`,
  `/api/companies/${companyId}/contacts-info`,
  `/api/companies/${companyId}/contacts?isEmergencyOrSaleContact=true`,
  `/api/companies/${companyId}/contacts?isEmergencyOrSaleContact=false`,
  `/api/companies/${companyId}/passanger-type-product`,
  `/api/companies/${companyId}/payment-gateways`,
];

export const pathOf = (url: string) => url.split('?')[0] ?? url;
