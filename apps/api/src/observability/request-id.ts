import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const requestIdHeader = 'x-request-id';

/**
 * An incoming X-Request-Id is kept only when it looks like an id (a proxy's or the storefront's own): letters,
 * digits, `.`, `_`, `-`, 8 to 64 of them. Anything else (spaces, quotes, control characters, an e-mail, a
 * megabyte) could forge or pollute log lines, so the request gets an id of its own instead.
 */
export const requestIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{7,63}$/;

/** Fastify's genReqId: the caller's id when it is sane, else a random UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[requestIdHeader];
  return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
}

type ErrorBodyShape = { status: unknown; detail: unknown; instance: unknown; errors: unknown; requestId?: string };

const isErrorBody = (payload: unknown): payload is ErrorBodyShape =>
  typeof payload === 'object' &&
  payload !== null &&
  !Array.isArray(payload) &&
  'status' in payload &&
  'detail' in payload &&
  'instance' in payload &&
  'errors' in payload;

/**
 * `body` with the request's id, and the X-Request-Id header set: for answers sent where Fastify runs no hooks (its
 * errors before routing, app.ts answerFrameworkError).
 */
export function withRequestId<Body extends object>(request: FastifyRequest, reply: FastifyReply, body: Body) {
  reply.header(requestIdHeader, request.id);
  return { ...body, requestId: String(request.id) };
}

/**
 * Every answer names its request in X-Request-Id, and every §8 error body carries it as `requestId`: what a visitor
 * or a client quotes to support is the key to the request's log lines (Fastify writes it as `reqId` on each).
 */
export function registerRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(requestIdHeader, request.id);
  });
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (reply.statusCode < 400 || !isErrorBody(payload) || payload.requestId !== undefined) return payload;
    return { ...payload, requestId: String(request.id) };
  });
}
