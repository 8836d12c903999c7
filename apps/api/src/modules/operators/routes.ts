import { Readable } from 'node:stream';
import { addDays, chileDayStart } from '@travesia/domain/dates';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { typed } from '#app/http.ts';
import { type AuditEntry, auditCsv, searchAudit } from '../audit/service.ts';
import { actorOf, consoleErrors, keysetPage, sessionOf } from './console-routes.ts';
import { backofficeGuard, clearSessionCookie, cookieSettings, setSessionCookie } from './guard.ts';
import { passwordMaxLength } from './passwords.ts';
import { consoleScreens } from './screens.ts';
import { csrfTokenOf } from './secrets.ts';
import {
  changeOperator,
  completeEnrolment,
  consoleOrigin,
  createApiKey,
  enrolmentOf,
  enrolmentUrl,
  inviteOperator,
  listApiKeys,
  listOperators,
  listSessions,
  messages,
  type NewSession,
  operatorDeps,
  operatorStates,
  operatorView,
  resetFactors,
  revokeApiKey,
  revokeOwnSession,
  roleList,
  secondFactor,
  sessionAbsoluteMs,
  signIn,
  signOut,
} from './service.ts';
import { todayFigures } from './today.ts';

const roleSchema = z.enum(roleList);
const rolesSchema = z.array(roleSchema).min(1).max(roleList.length);
const operatorSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  roles: z.array(roleSchema),
  state: z.enum(operatorStates),
});
const operatorDetailSchema = operatorSchema.extend({
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const apiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  roles: z.array(roleSchema),
  prefix: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ operatorId: z.string().nullable(), apiKeyId: z.string().nullable(), label: z.string() }),
  ip: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
const idParams = z.object({ id: z.uuid() });
const tokenParams = z.object({ token: z.string().min(20).max(100) });
const emailSchema = z.email().max(254);
const iso = (date: Date | null) => date?.toISOString() ?? null;

const auditEntryView = (entry: AuditEntry) => ({
  id: String(entry.id),
  at: entry.at.toISOString(),
  actor: { operatorId: entry.actorOperatorId, apiKeyId: entry.actorApiKeyId, label: entry.actorLabel },
  ip: entry.ip,
  action: entry.action,
  targetType: entry.targetType,
  targetId: entry.targetId,
  before: entry.before,
  after: entry.after,
});

/** An instant, or a Chile date (the console's date fields): `from` at the day's start, `to` through its end. */
const auditBound = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);
const auditQuery = z.object({
  actor: z.string().trim().min(1).max(254).optional(),
  action: z.string().trim().min(1).max(60).optional(),
  from: auditBound.optional(),
  to: auditBound.optional(),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional(),
});

/** A bound of the audit search as an instant: a Chile date starts at its midnight and, as `to`, ends before the next. */
function auditInstant(bound: string, side: 'start' | 'end'): Date {
  if (bound.includes('T')) return new Date(bound);
  return side === 'start' ? chileDayStart(bound) : new Date(chileDayStart(addDays(bound, 1)).getTime() - 1);
}

/**
 * The operator console's API under /api/backoffice (issue 24; the contract is /work/notes/backoffice-contract.md,
 * the role matrix docs/backoffice-roles.md). Every route passes the guard (guard.ts) first.
 */
export async function backofficeRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { config } = fastify;
  const deps = operatorDeps(fastify.db, config.backoffice.secretsKey, fastify.clock);
  const origin = consoleOrigin(config);
  const cookie = cookieSettings(config.backoffice.secureCookie);
  const client = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? '' });
  const signInLimit = { rateLimit: config.rateLimits.operatorSignIn, invalidInputDetail: messages.invalidInput };
  fastify.decorateRequest('backofficeCaller', null);
  // The console's API is internal: it stays out of the storefront's public OpenAPI document (and its typed client).
  fastify.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  fastify.addHook(
    'onRequest',
    backofficeGuard(deps, {
      prefix: fastify.prefix,
      origin,
      cookie,
      allowedNetworks: config.backoffice.allowedNetworks,
    }),
  );
  // Console answers are never cached, anywhere.
  fastify.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  const opened = (session: NewSession) => ({
    csrfToken: csrfTokenOf(deps.keys, session.token),
  });
  const startSession = (reply: Parameters<typeof setSessionCookie>[0], session: NewSession) =>
    setSessionCookie(reply, cookie, session.token, Math.floor(sessionAbsoluteMs / 1000));

  app.get(
    '/enrolment/:token',
    {
      config: signInLimit,
      schema: {
        tags: ['backoffice'],
        description: "An enrolment link's page: the operator's e-mail and roles and the TOTP secret to scan.",
        params: tokenParams,
        response: {
          200: z.object({
            email: z.string(),
            roles: z.array(roleSchema),
            totp: z.object({ secret: z.string(), otpauthUrl: z.string(), qrSvg: z.string() }),
          }),
          ...consoleErrors,
        },
      },
    },
    async (request) => enrolmentOf(deps, request.params.token),
  );

  app.post(
    '/enrolment/:token',
    {
      config: signInLimit,
      schema: {
        tags: ['backoffice'],
        description:
          'Completes an enrolment: name, password (12+ characters, judged by a strength estimator) and a TOTP code. Answers the 10 recovery codes once, and opens a session.',
        params: tokenParams,
        body: z.object({
          name: z.string().trim().min(1).max(120),
          password: z.string().max(passwordMaxLength * 4),
          totpCode: z.string().trim().max(10),
        }),
        response: {
          200: z.object({
            recoveryCodes: z.array(z.string()).length(10),
            operator: operatorSchema,
            csrfToken: z.string(),
          }),
          ...consoleErrors,
        },
      },
    },
    async (request, reply) => {
      const done = await completeEnrolment(deps, request.params.token, request.body, client(request));
      startSession(reply, done.session);
      return { recoveryCodes: done.recoveryCodes, operator: done.operator, ...opened(done.session) };
    },
  );

  app.post(
    '/sign-in',
    {
      config: signInLimit,
      schema: {
        tags: ['backoffice'],
        description:
          'First step of a sign-in. The same 401 whether or not the account exists; 429 with Retry-After while locked.',
        body: z.object({
          email: z.string().trim().min(1).max(254),
          password: z
            .string()
            .min(1)
            .max(passwordMaxLength * 4),
        }),
        response: { 200: z.object({ step: z.literal('second-factor'), challenge: z.string() }), ...consoleErrors },
      },
    },
    async (request) => signIn(deps, request.body, client(request)),
  );

  app.post(
    '/sign-in/second-factor',
    {
      config: signInLimit,
      schema: {
        tags: ['backoffice'],
        description: 'Second step: a TOTP code or a recovery code (each once). Opens the session (cookie).',
        body: z.object({ challenge: z.string().min(1).max(100), code: z.string().trim().min(1).max(20) }),
        response: { 200: z.object({ operator: operatorSchema, csrfToken: z.string() }), ...consoleErrors },
      },
    },
    async (request, reply) => {
      const done = await secondFactor(deps, request.body, client(request));
      startSession(reply, done.session);
      return { operator: done.operator, ...opened(done.session) };
    },
  );

  app.get(
    '/me',
    {
      schema: {
        tags: ['backoffice'],
        response: {
          200: z.object({
            operator: operatorSchema,
            csrfToken: z.string(),
            session: z.object({ id: z.uuid(), createdAt: z.string(), expiresAt: z.string() }),
          }),
          ...consoleErrors,
        },
      },
    },
    async (request) => {
      const { operator, session, csrfToken } = sessionOf(request);
      return {
        operator: operatorView(operator),
        csrfToken,
        session: {
          id: session.id,
          createdAt: session.createdAt.toISOString(),
          expiresAt: session.expiresAt.toISOString(),
        },
      };
    },
  );

  app.post(
    '/sign-out',
    { schema: { tags: ['backoffice'], response: { 204: z.null(), ...consoleErrors } } },
    async (request, reply) => {
      await signOut(deps, sessionOf(request), request.ip);
      clearSessionCookie(reply, cookie);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/sessions',
    {
      schema: {
        tags: ['backoffice'],
        response: {
          200: z.object({
            sessions: z.array(
              z.object({
                id: z.uuid(),
                current: z.boolean(),
                createdAt: z.string(),
                lastSeenAt: z.string(),
                ip: z.string(),
                userAgent: z.string(),
              }),
            ),
          }),
          ...consoleErrors,
        },
      },
    },
    async (request) => {
      const sessions = await listSessions(deps, sessionOf(request));
      return {
        sessions: sessions.map((s) => ({
          ...s,
          createdAt: s.createdAt.toISOString(),
          lastSeenAt: s.lastSeenAt.toISOString(),
        })),
      };
    },
  );

  app.delete(
    '/sessions/:id',
    { schema: { tags: ['backoffice'], params: idParams, response: { 204: z.null(), ...consoleErrors } } },
    async (request, reply) => {
      await revokeOwnSession(deps, sessionOf(request), request.params.id, request.ip);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/today',
    {
      schema: {
        tags: ['backoffice'],
        description: "Screen 1's figures that exist today, each with the list it links to.",
        response: {
          200: z.object({
            // A count, or (`unit: 'clp'`) an amount in pesos.
            figures: z.array(
              z.object({
                key: z.string(),
                label: z.string(),
                value: z.union([z.number(), z.string()]),
                unit: z.literal('clp').optional(),
                href: z.string(),
                // Something to act on, in words (the exchange rate is older than one business day).
                warning: z.string().optional(),
              }),
            ),
          }),
          ...consoleErrors,
        },
      },
    },
    async () => ({ figures: await todayFigures(fastify.db, deps.now(), config.companyId) }),
  );

  const detail = (operator: Awaited<ReturnType<typeof listOperators>>[number]) => ({
    ...operator,
    createdAt: operator.createdAt.toISOString(),
    updatedAt: operator.updatedAt.toISOString(),
  });

  app.get(
    '/operators',
    {
      schema: {
        tags: ['backoffice'],
        response: { 200: z.object({ operators: z.array(operatorDetailSchema) }), ...consoleErrors },
      },
    },
    async () => ({ operators: (await listOperators(deps)).map(detail) }),
  );

  app.post(
    '/operators',
    {
      config: { invalidInputDetail: messages.invalidInput },
      schema: {
        tags: ['backoffice'],
        body: z.object({ email: emailSchema, name: z.string().trim().min(1).max(120).optional(), roles: rolesSchema }),
        response: { 201: z.object({ operator: operatorDetailSchema, enrolmentUrl: z.string() }), ...consoleErrors },
      },
    },
    async (request, reply) => {
      const { operator, token } = await inviteOperator(deps, actorOf(request), request.body);
      return reply.code(201).send({ operator: detail(operator), enrolmentUrl: enrolmentUrl(origin, token) });
    },
  );

  app.patch(
    '/operators/:id',
    {
      config: { invalidInputDetail: messages.invalidInput },
      schema: {
        tags: ['backoffice'],
        description:
          'Changes roles or state. With `version` (as read), 409 `stale` when another administrator changed the operator first.',
        params: idParams,
        body: z
          .object({
            roles: rolesSchema.optional(),
            state: z.enum(['active', 'deactivated']).optional(),
            version: z.number().int().positive().optional(),
          })
          .refine((body) => body.roles !== undefined || body.state !== undefined, { message: 'roles or state' }),
        response: { 200: z.object({ operator: operatorDetailSchema }), ...consoleErrors },
      },
    },
    async (request) => ({
      operator: detail(await changeOperator(deps, actorOf(request), request.params.id, request.body)),
    }),
  );

  app.post(
    '/operators/:id/reset-factors',
    {
      schema: {
        tags: ['backoffice'],
        params: idParams,
        response: { 200: z.object({ enrolmentUrl: z.string() }), ...consoleErrors },
      },
    },
    async (request) => ({
      enrolmentUrl: enrolmentUrl(origin, await resetFactors(deps, actorOf(request), request.params.id)),
    }),
  );

  const keyView = (key: Awaited<ReturnType<typeof listApiKeys>>[number]) => ({
    ...key,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt.toISOString(),
    lastUsedAt: iso(key.lastUsedAt),
    revokedAt: iso(key.revokedAt),
  });

  app.get(
    '/api-keys',
    {
      schema: {
        tags: ['backoffice'],
        response: { 200: z.object({ apiKeys: z.array(apiKeySchema) }), ...consoleErrors },
      },
    },
    async () => ({ apiKeys: (await listApiKeys(deps)).map(keyView) }),
  );

  app.post(
    '/api-keys',
    {
      config: { invalidInputDetail: messages.invalidInput },
      schema: {
        tags: ['backoffice'],
        description: 'Creates an API key (Authorization: Bearer <secret>); the secret is answered this once.',
        body: z.object({
          name: z.string().trim().min(1).max(80),
          roles: rolesSchema,
          expiresAt: z.iso.datetime({ offset: true }),
        }),
        response: { 201: z.object({ apiKey: apiKeySchema, secret: z.string() }), ...consoleErrors },
      },
    },
    async (request, reply) => {
      const maxExpiry = deps.now().getTime() + 366 * 24 * 60 * 60 * 1000;
      const expiresAt = new Date(Math.min(new Date(request.body.expiresAt).getTime(), maxExpiry));
      const created = await createApiKey(deps, actorOf(request), { ...request.body, expiresAt });
      return reply.code(201).send({ apiKey: keyView(created.apiKey), secret: created.secret });
    },
  );

  app.delete(
    '/api-keys/:id',
    { schema: { tags: ['backoffice'], params: idParams, response: { 204: z.null(), ...consoleErrors } } },
    async (request, reply) => {
      await revokeApiKey(deps, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  const filterOf = (query: z.infer<typeof auditQuery>) => ({
    actor: query.actor,
    action: query.action,
    from: query.from ? auditInstant(query.from, 'start') : undefined,
    to: query.to ? auditInstant(query.to, 'end') : undefined,
  });

  app.get(
    '/audit',
    {
      config: { invalidInputDetail: messages.invalidInput },
      schema: {
        tags: ['backoffice'],
        description: "The audit trail, newest first, 50 a page; `cursor` is the previous page's `nextCursor`.",
        querystring: auditQuery,
        response: {
          200: z.object({ entries: z.array(auditEntrySchema), nextCursor: z.string().nullable() }),
          ...consoleErrors,
        },
      },
    },
    async (request) => {
      const page = await keysetPage(request.query.cursor, (before, limit) =>
        searchAudit(fastify.db, { ...filterOf(request.query), before }, limit),
      );
      return { entries: page.rows.map(auditEntryView), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/audit.csv',
    {
      config: { invalidInputDetail: messages.invalidInput },
      schema: {
        tags: ['backoffice'],
        description: 'The audit trail as CSV, filtered as /audit.',
        querystring: auditQuery.omit({ cursor: true }),
      },
    },
    async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="auditoria.csv"')
        .send(Readable.from(auditCsv(fastify.db, filterOf(request.query)))),
  );

  // Each screen's routes (screens.ts) register inside this plugin, so the guard and the hooks above apply to them.
  for (const screen of consoleScreens) await fastify.register(screen);
}
