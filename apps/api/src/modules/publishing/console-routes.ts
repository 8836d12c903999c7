import { chileWallTimeOf, chileWallTimeToInstant } from '@travesia/domain/dates';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { actorOf, consoleErrors } from '../operators/console-routes.ts';
import type { Kinds } from './kind.ts';
import { previewMessages, previewTtlMs, signPreview, verifyPreview } from './preview.ts';
import * as publishing from './service.ts';
import { findDraftBody } from './service.ts';

/** What app.ts hands the publishing screens: the kinds, the preview secret and the storefront's origin. */
export type PublishingSetup = { kinds: Kinds; previewSecret: string; storeOrigin: string };

declare module 'fastify' {
  interface FastifyInstance {
    /** The publishing model's kinds and preview settings (workflows/publishing.ts, wired by app.ts). */
    publishing: PublishingSetup;
  }
}

const keyParams = z.object({ key: z.string().min(1).max(60) });
const version = z.number().int().min(0).max(2_147_483_647);

const draftSchema = z.object({
  body: z.unknown(),
  version: z.number(),
  updatedAt: z.string(),
  updatedBy: z.string(),
});

const publicationSchema = z.object({
  id: z.number(),
  status: z.enum(['scheduled', 'published', 'cancelled']),
  /** Chile wall time (YYYY-MM-DDTHH:mm) and the instant. */
  publishAt: z.string(),
  publishAtChile: z.string(),
  publishedAt: z.string().nullable(),
  createdBy: z.string(),
  rollbackOf: z.number().nullable(),
  changes: z.array(z.string()),
});

const scheduleMessages = {
  invalid: 'Indica la fecha y hora de Chile como AAAA-MM-DDTHH:MM.',
  skipped: 'Esa hora no existe en Chile (los relojes se adelantan esa noche): elige otra.',
};

/** `YYYY-MM-DDTHH:mm` in Chile (daylight saving included) → the instant; a 400 for a time that does not exist. */
function publishAtOf(wall: string | undefined): Date | undefined {
  if (wall === undefined) return undefined;
  // An instant with its offset (automation, tests) is taken as it is.
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(wall)) {
    const at = new Date(wall);
    if (!Number.isNaN(at.getTime())) return at;
  }
  const instant = chileWallTimeToInstant(wall);
  if (instant) return instant;
  const message = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(wall) ? scheduleMessages.skipped : scheduleMessages.invalid;
  throw new ApiError(400, message, [{ field: 'publishAt', code: 'invalid', message }]);
}

const publicationView = (row: {
  id: number;
  status: 'scheduled' | 'published' | 'cancelled';
  publishAt: Date;
  publishedAt: Date | null;
  createdBy: string;
  rollbackOf: number | null;
  changes?: string[];
}) => ({
  id: row.id,
  status: row.status,
  publishAt: row.publishAt.toISOString(),
  publishAtChile: chileWallTimeOf(row.publishAt),
  publishedAt: row.publishedAt?.toISOString() ?? null,
  createdBy: row.createdBy,
  rollbackOf: row.rollbackOf,
  changes: row.changes ?? [],
});

/**
 * The publishing model's console routes (issue 25), the same for every kind, under `/<kind>/:key`: read the item
 * (live, draft, scheduled), save the draft (version check), publish now or at a Chile time, cancel what is scheduled,
 * history with diffs, rollback, and a preview link. Each route has its line per kind in operators/guard.ts.
 */
export async function publishingConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const tags = ['backoffice'];
  const deps = (): publishing.PublishingDeps => ({
    db: fastify.db,
    kinds: fastify.publishing.kinds,
    invalidate: (scope) => fastify.invalidateReadCache(scope),
    clock: fastify.clock,
  });

  for (const kind of fastify.publishing.kinds.values()) {
    const base = `/${kind.kind}/:key`;

    app.get(
      base,
      {
        schema: {
          tags,
          description: `The ${kind.kind} item: live, its draft (if any) with what it changes, and its scheduled publication.`,
          params: keyParams,
          response: {
            200: z.object({
              live: z.unknown(),
              draft: draftSchema.nullable(),
              changes: z.array(z.string()),
              scheduled: publicationSchema.nullable(),
            }),
            ...consoleErrors,
          },
        },
      },
      async (request) => {
        const { key } = request.params;
        const item = await publishing.readItem(deps(), kind.kind, key);
        const changes = item.draft ? await kind.describe(fastify.db, key, item.live, item.draft.body) : [];
        return {
          live: item.live,
          draft: item.draft
            ? {
                body: item.draft.body,
                version: item.draft.version,
                updatedAt: item.draft.updatedAt.toISOString(),
                updatedBy: item.draft.updatedBy,
              }
            : null,
          changes,
          scheduled: item.scheduled
            ? publicationView({
                ...item.scheduled,
                changes: await kind.describe(fastify.db, key, item.live, item.scheduled.body),
              })
            : null,
        };
      },
    );

    app.put(
      `${base}/draft`,
      {
        schema: {
          tags,
          description:
            'Saves the draft. baseVersion: the draft version it was edited from (0 when there was none); 409 saying what changed when another save came first.',
          params: keyParams,
          body: z.object({ body: z.unknown(), baseVersion: version }),
          response: { 200: z.object({ version: z.number() }), ...consoleErrors },
        },
      },
      (request) =>
        publishing.saveDraft(
          deps(),
          kind.kind,
          request.params.key,
          { body: request.body.body, baseVersion: request.body.baseVersion },
          actorOf(request),
        ),
    );

    app.post(
      `${base}/publish`,
      {
        schema: {
          tags,
          description:
            'Publishes the saved draft now, or at publishAt: a Chile wall time YYYY-MM-DDTHH:mm (daylight saving included), or an ISO instant with its offset. baseVersion: the draft version shown; 409 when stale.',
          params: keyParams,
          body: z.object({ baseVersion: version, publishAt: z.string().max(40).optional() }),
          response: {
            200: z.object({ publication: publicationSchema, version: z.number() }),
            ...consoleErrors,
          },
        },
      },
      async (request) => {
        const publishAt = publishAtOf(request.body.publishAt);
        const outcome = await publishing.publish(
          deps(),
          kind.kind,
          request.params.key,
          { baseVersion: request.body.baseVersion, ...(publishAt ? { publishAt } : {}) },
          actorOf(request),
        );
        return { publication: publicationView(outcome.publication), version: outcome.version };
      },
    );

    app.delete(
      `${base}/scheduled`,
      {
        schema: {
          tags,
          description: 'Cancels the scheduled publication; 404 when none is scheduled.',
          params: keyParams,
          response: { 200: z.object({ cancelled: z.literal(true) }), ...consoleErrors },
        },
      },
      async (request) => {
        await publishing.cancelSchedule(deps(), kind.kind, request.params.key, actorOf(request));
        return { cancelled: true as const };
      },
    );

    app.get(
      `${base}/history`,
      {
        schema: {
          tags,
          description: 'The publications of the item, newest first, each with its readable diff.',
          params: keyParams,
          response: { 200: z.object({ publications: z.array(publicationSchema) }), ...consoleErrors },
        },
      },
      async (request) => ({
        publications: (await publishing.history(deps(), kind.kind, request.params.key)).map(publicationView),
      }),
    );

    app.post(
      `${base}/rollback`,
      {
        schema: {
          tags,
          description:
            "Publishes again an earlier version: what a publication made the item (to: 'after', the default) or what it was just before it (to: 'before'); audited like any publication.",
          params: keyParams,
          body: z.object({
            publicationId: z.number().int().positive().max(2_147_483_647),
            to: z.enum(['after', 'before']).default('after'),
          }),
          response: {
            200: z.object({ publication: publicationSchema, version: z.number() }),
            ...consoleErrors,
          },
        },
      },
      async (request) => {
        const outcome = await publishing.rollback(
          deps(),
          kind.kind,
          request.params.key,
          { publicationId: request.body.publicationId, side: request.body.to },
          actorOf(request),
        );
        return { publication: publicationView(outcome.publication), version: outcome.version };
      },
    );

    const { previewPath } = kind;
    if (previewPath) {
      app.post(
        `${base}/preview-link`,
        {
          schema: {
            tags,
            description: `A signed link to the storefront showing the saved draft, valid ${previewTtlMs / 60_000} minutes.`,
            params: keyParams,
            response: { 200: z.object({ url: z.string(), expiresAt: z.string() }), ...consoleErrors },
          },
        },
        async (request) => {
          const { key } = request.params;
          const item = await publishing.readItem(deps(), kind.kind, key);
          if (!item.draft) throw new ApiError(400, publishing.messages.noDraft);
          const expiresAt = fastify.clock().getTime() + previewTtlMs;
          const { path, scope } = await previewPath(fastify.db, key, item.draft.body);
          const token = signPreview(fastify.publishing.previewSecret, { kind: kind.kind, key, expiresAt, scope });
          const url = new URL(path, fastify.publishing.storeOrigin);
          url.searchParams.set('vista-previa', token);
          return { url: url.toString(), expiresAt: new Date(expiresAt).toISOString() };
        },
      );
    }
  }
}

/**
 * The draft body a genuine preview token opens on `scope` (app.ts hands it to the plans routes for the comparator's
 * preview): a token used on any other quotation is refused like a forged one.
 */
export async function previewDraft(
  setup: PublishingSetup,
  db: FastifyInstance['db'],
  token: string,
  scope: string,
  now: Date,
) {
  const claim = verifyPreview(setup.previewSecret, token, now);
  if (claim.scope !== scope) throw new ApiError(403, previewMessages.invalid);
  const draft = await findDraftBody(db, claim.kind, claim.key);
  if (draft === undefined) throw new ApiError(403, previewMessages.invalid);
  return { kind: claim.kind, key: claim.key, body: draft };
}
