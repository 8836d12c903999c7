import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { fieldErrorsOf } from '@travesia/domain/field-errors';
import { errorMessages, parameterMustBeDefined } from '@travesia/domain/messages';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { databaseUnavailable } from './db/unavailable.ts';
import { ApiError, errorBody, type FieldError } from './errors.ts';
import type { DocumentStore } from './integrations/document-store/index.ts';
import { createIntegrations, type Integrations } from './integrations/index.ts';
import type { Mailer } from './integrations/mail/mailer.ts';
import { type CacheInvalidation, createCacheInvalidation } from './lib/cache/cache-invalidation.ts';
import { createReadCache, databaseWithReadCache, type ReadCache } from './lib/cache/read-cache.ts';
import { apiSyncCompressionBytes, registerCompression } from './lib/http/compression.ts';
import { cachePolicy } from './lib/http/http-cache.ts';
import { registerLegacyRedirects } from './lib/http/legacy-redirects.ts';
import { nulFieldErrors } from './lib/http/nul-guard.ts';
import { registerRateLimits } from './lib/http/rate-limit.ts';
import { responseSerializerCompiler } from './lib/http/response-serializer.ts';
import { registerSecurityHeaders } from './lib/http/security-headers.ts';
import { loggableError } from './lib/loggable-error.ts';
import { configuredOrigin } from './lib/security/origins.ts';
import { registerBackgroundWork, Work } from './lib/work.ts';
import { adminRoutes } from './modules/admin/routes.ts';
import { blogKind, blogPreviewScope } from './modules/blog/blog-kind.ts';
import { blogImageRoutes } from './modules/blog/console-routes.ts';
import { blogRoutes } from './modules/blog/routes.ts';
import { sitemapRoutes } from './modules/blog/sitemap.ts';
import { catalogPreviewOf, geographySchema } from './modules/catalog/geography.ts';
import { catalogRoutes } from './modules/catalog/routes.ts';
import { certificateRoutes } from './modules/certificates/routes.ts';
import { claimRoutes } from './modules/claims/routes.ts';
import { UploadGate } from './modules/claims/uploads.ts';
import { companyRoutes } from './modules/company/routes.ts';
import { requireCompany } from './modules/company/service.ts';
import { sitePreviewOf } from './modules/company/site.ts';
import { contactRoutes } from './modules/contact/routes.ts';
import { type FaqBody, faqAnswerOf, faqPreviewScope } from './modules/content/faq-kind.ts';
import { contentRoutes } from './modules/content/routes.ts';
import { siteContactsSchema } from './modules/content/site-contacts.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { invoiceRoutes } from './modules/invoices/routes.ts';
import { type LegalPageBody, legalPreviewScope } from './modules/legal/legal-kind.ts';
import { legalRoutes } from './modules/legal/routes.ts';
import { backofficeRoutes } from './modules/operators/routes.ts';
import { apiKeyLookup, operatorDeps } from './modules/operators/service.ts';
import { passengerRoutes } from './modules/passengers/routes.ts';
import { paymentRoutes, saleRefundAdminRoutes } from './modules/payments/routes.ts';
import { planFileRoutes } from './modules/plans/plan-files.ts';
import { planRoutes } from './modules/plans/routes.ts';
import { previewDraft } from './modules/publishing/console-routes.ts';
import { previewBody, sitePreviewScope } from './modules/publishing/preview.ts';
import { purchaseRoutes } from './modules/purchases/routes.ts';
import { quotationRoutes } from './modules/quotations/routes.ts';
import { subscriptionRoutes } from './modules/subscriptions/routes.ts';
import { localProviderStore } from './modules/tax-documents/service.ts';
import { registerObservability, requestIdOf, withRequestId } from './observability/index.ts';
import { createBackgroundWork } from './worker.ts';
import { previewOverrideOf, publishingKindsOf, repricedPlansSince } from './workflows/publishing.ts';
import { lockPurchase, purchaseWorkflow, tripOfQuotation } from './workflows/purchase.ts';

export type BuildAppOptions = {
  config: Config;
  db: Database;
  logger?: FastifyServerOptions['logger'];
  /** The clock of the operator console's sessions, links and throttles (tests move it); the system's by default. */
  now?: () => Date;
};

export const apiPrefix = '/api';

declare module 'fastify' {
  interface FastifyInstance {
    /** The outside services (mail, payment gateways, captcha, document store), made once from the configuration. */
    integrations: Integrations;
    mailer: Mailer;
    /** Where visitors' documents are kept (DOCUMENT_STORE: a local directory or an S3-compatible bucket). */
    documentStore: DocumentStore;
    /** The caps on document uploads in flight, shared by the API's upload route and the refund pages' forms. */
    uploadGate: UploadGate;
    /** Runs the due jobs of the queue now (one run at a time); resolves with how many were done. */
    runJobs: () => Promise<number>;
    /** Resolves payments left in confirmation (crash, unreachable gateway); resolves with how many. */
    sweepPayments: () => Promise<number>;
    /** The personal-data retention (modules/privacy): run hourly by the worker, by tests at will. */
    applyRetention: () => Promise<number>;
    /** Queues this slot's exchange-rate fetch when a source is configured (worker.ts); the worker does it every 15 min. */
    queueExchangeRateFetch: () => Promise<boolean>;
    /** This app's catalogue read cache (CATALOG_CACHE_TTL_MS), the one `app.db` carries (lib/cache/read-cache.ts). */
    readCache: ReadCache;
    /** The read cache's invalidation hook: this instance, and every instance when REDIS_URL is set. */
    invalidateReadCache: CacheInvalidation['invalidate'];
    /** The events and services the modules reach each other through (lib/work.ts). */
    work: Work;
    /** What time it is for the operator console (BuildAppOptions.now). */
    clock: () => Date;
  }
}

/**
 * Clears the catalogue read cache of `app` (every key starting with `scope`, or all) and, when REDIS_URL is set, of
 * every instance listening on REDIS_CHANNEL. Resolves with whether the other instances were told.
 */
export function invalidateReadCache(app: FastifyInstance, scope?: string) {
  return app.invalidateReadCache(scope);
}

/** Builds the API (under /api) without listening: the server listens, tests inject. */
export async function buildApp({ config, db, logger = false, now }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    logController: new LogController({ disableRequestLogging: true }),
    // X-Forwarded-* are believed only from the proxies TRUST_PROXY names (off by default).
    trustProxy: config.trustProxy,
    // A client that trickles a request, or holds a silent connection, is cut off instead of holding a socket forever.
    requestTimeout: config.http.requestTimeoutMs,
    connectionTimeout: config.http.connectionTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    // Errors Fastify meets before routing (a path it cannot percent-decode, a path parameter over its 100 characters)
    // otherwise leave in Fastify's own body: they are bad input, answered in the §8 body like any other (issue #11).
    frameworkErrors: answerFrameworkError,
    genReqId: requestIdOf,
  });
  closeConnectionsWhenClosing(app);
  app.decorate('clock', now ?? (() => new Date()));
  // Operator API keys open the admin API too (lib/security/admin-token.ts), with the role admin or finance.
  app.decorate('apiKeyOf', apiKeyLookup(operatorDeps(db, config.backoffice.secretsKey, app.clock)));
  await registerServices(app, config, db);
  app.setValidatorCompiler(validatorCompiler);
  // Answers validated against their schema outside production mode; in it, only serialized (lib/http/response-serializer.ts).
  app.setSerializerCompiler(responseSerializerCompiler(config.responseValidation));
  app.setErrorHandler(answerError);
  logEachRequest(app);
  await registerOpenApi(app);
  await registerSecurityHeaders(app, config);
  await registerRateLimits(app, { redisUrl: config.redis.url, keyPrefix: config.redis.rateLimitPrefix, log: app.log });
  // Spec §9: configured old paths leave with a 301 before any route, the storefront's included, runs.
  registerLegacyRedirects(app, config.legacyRedirects);
  await app.register(apiRoutes, { prefix: apiPrefix });
  // The storefront's /sitemap.xml (blog/sitemap.ts): public pages and published posts at PUBLIC_URL.
  await app.register(sitemapRoutes);
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(404, errorMessages.resourceNotFound, request.url.split('?')[0] ?? '/'));
  });
  return app;
}

/**
 * A graceful stop closes idle connections at once, but Node leaves a keep-alive connection that was busy when the
 * stop began open after its answer, until the keep-alive timeout (72 s): the process would not exit in time. While
 * closing, every answer says `Connection: close`, so its connection ends with it (a balancer then uses another).
 */
function closeConnectionsWhenClosing(app: FastifyInstance) {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
}

/**
 * What the modules use besides their requests, as decorators: the configuration, the database handle with this
 * app's own read cache (another app built in the same process, even on the same handle, keeps its own), the cache's
 * invalidation hook, the integrations (mail, documents, upload caps) and `app.work` with the background work on it.
 */
async function registerServices(app: FastifyInstance, config: Config, sharedDb: Database) {
  const readCache = createReadCache(config.catalogCacheTtlMs);
  const db = databaseWithReadCache(sharedDb, readCache);
  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('readCache', readCache);
  const cacheInvalidation = await createCacheInvalidation({ readCache, redis: config.redis, log: app.log });
  app.decorate('invalidateReadCache', cacheInvalidation.invalidate);
  app.addHook('onClose', () => cacheInvalidation.close());
  // A reachable Redis is listened to before the first request; an unreachable one does not hold the start-up
  // (createCacheInvalidation has logged it and keeps trying).
  if (config.redis.url) await cacheInvalidation.subscribed(2_500);
  registerObservability(app);
  const integrations = createIntegrations(config, db, (store) => localProviderStore(db, store));
  app.decorate('integrations', integrations);
  app.decorate('mailer', integrations.mailer);
  app.decorate('documentStore', integrations.documentStore);
  app.decorate('uploadGate', new UploadGate(config.uploads.maxInFlight, config.uploads.maxInFlightPerClient));
  // The background work's hooks: what a request queues is run at once when this process runs the worker inline;
  // the timers themselves are started by server.ts (tests run the work by calling these).
  // The publishing model's kinds (workflows/publishing.ts), its preview secret and where preview links open.
  const publishingKinds = publishingKindsOf(config.companyId, config.features);
  app.decorate('publishing', {
    kinds: publishingKinds,
    previewSecret: config.previewSecret,
    storeOrigin: configuredOrigin(config),
  });
  const background = createBackgroundWork({
    db,
    integrations,
    log: app.log,
    publishing: { kinds: publishingKinds, invalidate: cacheInvalidation.invalidate },
    nudges: config.worker.mode === 'inline',
    origin: configuredOrigin(config),
    refundMail: {
      publicUrl: config.publicUrl,
      notifyEmail: config.refunds.notifyEmail,
      consoleUrl: config.backoffice.origin ?? config.publicUrl,
    },
    purchases: config.purchases,
    retention: config.retention,
    invalidateCache: cacheInvalidation.invalidate,
    now: app.clock,
  });
  const work = new Work();
  registerBackgroundWork(work, background);
  app.decorate('work', work);
  app.decorate('runJobs', background.runJobs);
  app.decorate('sweepPayments', background.sweepPayments);
  app.decorate('applyRetention', background.applyRetention);
  app.decorate('queueExchangeRateFetch', background.queueExchangeRateFetch);
  app.addHook('onClose', () => background.close());
}

/** One log line per request, naming the route's pattern (`/api/quotations/:companyId/:quotationId`), never the path:
 * paths carry quotation and sale ids, query strings e-mails or RUTs. */
function logEachRequest(app: FastifyInstance) {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? '(no route)',
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });
}

async function registerOpenApi(app: FastifyInstance) {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Travesía API',
        description: 'Storefront API of Travesía (spec §7). Errors use the body { status, detail, instance, errors }.',
        version: '1.0.0',
      },
      servers: [{ url: apiPrefix }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  // The OpenAPI viewer's scripts are large text: compressed like the API's answers.
  await app.register(async (docs) => {
    await registerCompression(docs);
    await docs.register(fastifySwaggerUi, { routePrefix: `${apiPrefix}/docs/ui` });
  });
}

/**
 * Every route under /api, with the hooks all of them share; each module's routes get what they use from `app` (its
 * events and the background work's services from `app.work`); the purchase workflow's steps are handed down here.
 */
async function apiRoutes(api: FastifyInstance) {
  const { db, integrations } = api;
  const { gateways } = integrations;
  // Brotli or gzip, as the client asks (lib/http/compression.ts); small answers leave as they are, kept ones (a plan
  // search answer) are compressed once.
  await registerCompression(api, { syncThresholdBytes: apiSyncCompressionBytes });
  // One guard for every API route: PostgreSQL text cannot hold U+0000, so a path parameter, query value or body
  // string with it is the route's 400 (with the field named), before validation and long before the database.
  api.addHook('preValidation', async (request) => {
    // The catch-all's `*` is just the rest of an unknown path: that is a 404 whatever it holds.
    if (request.routeOptions.url === `${apiPrefix}/*`) return;
    const fieldErrors = nulFieldErrors(request);
    if (fieldErrors.length === 0) return;
    const detail = request.routeOptions.config.invalidInputDetail ?? errorMessages.invalidInputParameters;
    throw new ApiError(400, detail, fieldErrors);
  });
  // API answers carry quotations, travellers and sales: no browser or proxy may keep one unless its route says so
  // (its own Cache-Control, or `config: publicCatalogue` for public catalogue data: a minute, with an ETag).
  const cachePolicyOf = cachePolicy();
  api.addHook('onSend', async (request, reply, payload) => cachePolicyOf(request, reply, payload));
  // The company of every call whose path names one (`/companies/:companyId/…`, `/quotations/:companyId/…`,
  // `/:companyId/plans…`) is checked once, here: an unknown one is the §8 404 «Company not found».
  api.addHook('preHandler', async (request) => {
    if (!request.routeOptions.url?.includes(':companyId')) return;
    await requireCompany(db, (request.params as { companyId: number }).companyId);
  });

  await api.register(healthRoutes);
  await api.register(companyRoutes, {
    // A console preview link's site draft (issue 25): the shell shows it, never kept.
    previewSite: async (token: string) => {
      const draft = await previewDraft(api.publishing, db, token, sitePreviewScope, api.clock());
      return sitePreviewOf(draft.kind, draft.body);
    },
  });
  await api.register(catalogRoutes, {
    gateways,
    // A site preview link of the geography: the quoter's lists answer the draft; any other site draft, the live ones.
    previewCatalog: async (token: string) => {
      const draft = await previewDraft(api.publishing, db, token, sitePreviewScope, api.clock());
      return draft.kind === 'geography' ? catalogPreviewOf(previewBody(geographySchema, draft.body)) : null;
    },
  });
  await api.register(contentRoutes, {
    // A console preview link's FAQ draft (issue 25): the FAQ route answers it, never kept.
    previewFaq: async (token: string) =>
      faqAnswerOf((await previewDraft(api.publishing, db, token, faqPreviewScope, api.clock())).body as FaqBody),
    // A site preview link of the contacts: /contactanos answers the draft; any other site draft shows the live ones.
    previewContacts: async (token: string) => {
      const draft = await previewDraft(api.publishing, db, token, sitePreviewScope, api.clock());
      return draft.kind === 'site-contacts' ? previewBody(siteContactsSchema, draft.body) : null;
    },
  });
  await api.register(subscriptionRoutes);
  await api.register(contactRoutes);
  await api.register(quotationRoutes, { lockPurchase });
  await api.register(planRoutes, {
    tripOfQuotation,
    // A console preview link's draft prices or plan (issue 25): the comparator priced with it, never kept.
    previewPrices: async (token, quotationId) =>
      previewOverrideOf(
        db,
        api.config.companyId,
        await previewDraft(api.publishing, db, token, quotationId, api.clock()),
      ),
    repricedPlansSince,
  });
  const purchaseSteps = purchaseWorkflow({ taxDocuments: integrations.taxDocuments !== undefined }).steps;
  await api.register(planFileRoutes);
  await api.register(paymentRoutes({ workflow: purchaseSteps }));
  await api.register(saleRefundAdminRoutes);
  await api.register(certificateRoutes);
  await api.register(passengerRoutes, { lockPurchase });
  await api.register(invoiceRoutes);
  await api.register(blogRoutes, {
    // A console preview link's draft of a post (issue 25 item 7): its article page shows it, never kept.
    previewPost: async (token: string, postId: number) =>
      blogKind.schema.parse(
        (await previewDraft(api.publishing, db, token, blogPreviewScope(String(postId)), api.clock())).body,
      ),
  });
  await api.register(blogImageRoutes);
  await api.register(legalRoutes, {
    // A console preview link's draft of one legal page (issue 25): that page's route answers it, never kept.
    previewLegalPage: async (token: string, slug: string) =>
      (await previewDraft(api.publishing, db, token, legalPreviewScope(slug), api.clock())).body as LegalPageBody,
  });
  await api.register(claimRoutes);
  await api.register(purchaseRoutes({ workflow: purchaseSteps }));
  await api.register(adminRoutes);
  // The operator console's API (issue 24): its own guard, sessions, CSRF and role matrix (modules/operators).
  await api.register(backofficeRoutes, { prefix: '/backoffice' });

  // The OpenAPI document itself; a browser asking for HTML is sent to the interactive viewer.
  api.get('/docs', { schema: { hide: true } }, (request, reply) => {
    if (request.headers.accept?.includes('text/html')) return reply.redirect(`${apiPrefix}/docs/ui/`);
    return reply.send(api.swagger());
  });

  // Any other /api path: the catalogue's 404 body, never the storefront's HTML.
  api.all('/*', { schema: { hide: true } }, async () => {
    throw new ApiError(404, errorMessages.resourceNotFound);
  });
}

/** Fastify's errors before a route is chosen: FST_ERR_BAD_URL, FST_ERR_MAX_PARAM_LENGTH (bad input), else 500. */
function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const instance = request.url.split('?')[0] ?? '/';
  const code = { FST_ERR_BAD_URL: 'invalid_format', FST_ERR_MAX_PARAM_LENGTH: 'too_long' }[error.code ?? ''];
  if (code === 'invalid_format' || code === 'too_long') {
    const message =
      code === 'too_long' ? 'A path parameter is too long' : 'The path is not valid percent-encoded UTF-8';
    const errors: FieldError[] = [{ field: 'path', code, message }];
    const body = errorBody(400, errorMessages.invalidInputParameters, instance, errors);
    return reply.code(400).send(withRequestId(request, reply, body));
  }
  request.log.error({ error: loggableError(error) }, 'unhandled framework error');
  return reply.code(500).send(withRequestId(request, reply, errorBody(500, errorMessages.internal, instance)));
}

/** What a 503 tells clients to wait before trying again, in seconds: about what the pool needs to reconnect. */
const retryAfterSeconds = 5;

/** Spec §8: every failure leaves as `{ status, detail, instance, errors }`, with no stack trace or SQL. */
function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const instance = request.url.split('?')[0] ?? '/';
  if (error instanceof ApiError) {
    if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
    return reply.code(error.status).send(errorBody(error.status, error.detail, instance, error.fieldErrors));
  }
  const invalidDetail = request.routeOptions.config.invalidInputDetail ?? errorMessages.invalidInputParameters;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = error.validationContext;
    const input = { body: request.body, querystring: request.query, params: request.params }[String(context)];
    // Each issue as zod raised it (fastify-type-provider-zod keeps its fields in `params`), named by the domain's codes.
    const issues = error.validation.map((issue) => ({
      ...issue.params,
      code: issue.keyword,
      path: issue.instancePath === '/' ? [] : issue.instancePath.slice(1).split('/'),
      message: issue.message ?? 'Invalid value',
    }));
    const fieldErrors = fieldErrorsOf(issues, input, String(context));
    if (context === 'querystring' || context === 'params') {
      const given = (context === 'params' ? request.params : request.query) as Record<string, unknown>;
      const missing = fieldErrors.find(({ field }) => given[field] === undefined || given[field] === '');
      if (missing) {
        const detail = parameterMustBeDefined(missing.field);
        const errors: FieldError[] = [{ field: missing.field, code: 'required', message: detail }];
        return reply.code(400).send(errorBody(400, detail, instance, errors));
      }
      // A company id that is not a positive integer names no company.
      if (context === 'params' && fieldErrors.some(({ field }) => field === 'companyId')) {
        return reply.code(404).send(errorBody(404, errorMessages.companyNotFound, instance));
      }
    }
    return reply.code(400).send(errorBody(400, invalidDetail, instance, fieldErrors));
  }
  const status = error.statusCode ?? 500;
  if (status === 400) {
    // Fastify's own 400s: malformed JSON, empty body with a JSON content type…
    const errors: FieldError[] = [{ field: 'body', code: 'invalid_body', message: error.message }];
    return reply.code(400).send(errorBody(400, invalidDetail, instance, errors));
  }
  if (status > 400 && status < 500) {
    return reply.code(status).send(errorBody(status, errorMessages.unexpected, instance));
  }
  const unavailable = databaseUnavailable(error);
  if (unavailable) {
    // The database is gone, frozen or restarting: the client may try again shortly; the pool reconnects by itself.
    request.log.warn({ reason: unavailable, error: loggableError(error) }, 'database unavailable');
    return reply
      .code(503)
      .header('retry-after', String(retryAfterSeconds))
      .send(errorBody(503, errorMessages.unexpected, instance));
  }
  // Only the safe fields: a failed query's message quotes its parameters (RUTs, e-mails, phones).
  request.log.error({ error: loggableError(error) }, 'unhandled error');
  return reply.code(500).send(errorBody(500, errorMessages.internal, instance));
}
