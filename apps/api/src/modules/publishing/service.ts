import { chileWallTimeOf } from '@travesia/domain/dates';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError, resourceNotFound } from '#app/errors.ts';
import { type AuditActor, recordAudit } from '../audit/service.ts';
import type { JobHandler } from '../jobs/service.ts';
import { enqueue } from '../jobs/service.ts';
import type { Kinds, PublishableKind } from './kind.ts';
import * as repository from './repository.ts';

export type { Kinds, PublishableKind } from './kind.ts';
export { kindsOf } from './kind.ts';

/** Clears the read cache on this instance and every other (the app's invalidation hook). */
export type Invalidate = (scope?: string) => Promise<unknown>;

export type PublishingDeps = { db: Database; kinds: Kinds; invalidate: Invalidate; clock: () => Date };

/** The job that applies a scheduled publication when its time comes (registered by worker.ts). */
export const publicationJobKind = 'publishing.publish';

export const messages = {
  noDraft: 'No hay un borrador guardado para publicar: guarda los cambios primero.',
  pastSchedule: 'La fecha y hora de publicación ya pasó: elige una futura o publica ahora.',
  notPublished: 'Solo se puede volver a una versión publicada de este elemento.',
};

export function kindOf(kinds: Kinds, name: string): PublishableKind {
  const kind = kinds.get(name);
  if (!kind) throw resourceNotFound();
  return kind;
}

/** The body parsed by the kind's schema, or a 400 naming each bad field. */
function parseBody(kind: PublishableKind, body: unknown) {
  const parsed = kind.schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new ApiError(
    400,
    'Los datos del borrador no son válidos',
    parsed.error.issues.map((issue) => ({
      field: ['body', ...issue.path.map(String)].join('.'),
      code: 'invalid' as const,
      message: issue.message,
    })),
  );
}

const hhmm = (at: Date) => chileWallTimeOf(at).slice(11);

/**
 * The 409 of a save or publish based on a version that is no longer the draft's: who saved since, when (Chile time),
 * and how what they saved differs from what this editor sent, in the kind's words.
 */
async function staleDraft(
  db: Database,
  kind: PublishableKind,
  key: string,
  draft: repository.DraftRow,
  sent: unknown,
): Promise<ApiError> {
  const lines = sent === undefined ? [] : await kind.describe(db, key, sent, draft.body);
  const changes = lines.length > 0 ? ` Lo guardado difiere de lo tuyo en: ${lines.join('; ')}.` : '';
  const message = `${draft.updatedBy} guardó este borrador a las ${hhmm(draft.updatedAt)} (versión ${draft.version}) después de que lo abriste.${changes} Recarga para ver su versión y vuelve a aplicar tus cambios.`;
  return new ApiError(409, message, [{ field: 'version', code: 'stale', message }]);
}

/** The saved draft's body of an item, or undefined. */
export async function findDraftBody(db: Database, kind: string, key: string): Promise<unknown> {
  return (await repository.findDraft(db, kind, key))?.body;
}

/** Which items of a kind were published after `since` (the comparator's notice of repriced plans). */
export function keysPublishedSince(db: Database, kind: string, keys: string[], since: Date): Promise<string[]> {
  return repository.keysPublishedSince(db, kind, keys, since);
}

/** The keys of a kind with a publication scheduled. */
export async function scheduledKeys(db: Database, kind: string): Promise<Set<string>> {
  return new Set(await repository.scheduledKeys(db, kind));
}

/** The item as the console shows it: live body, the draft (if any), and a scheduled publication (if any). */
export async function readItem(deps: PublishingDeps, kindName: string, key: string) {
  const kind = kindOf(deps.kinds, kindName);
  const live = await kind.current(deps.db, key);
  if (live === undefined) throw resourceNotFound();
  const [draft, scheduled] = await Promise.all([
    repository.findDraft(deps.db, kind.kind, key),
    repository.findScheduled(deps.db, kind.kind, key),
  ]);
  return { kind, live, draft, scheduled };
}

/**
 * Saves the item's draft. `baseVersion` is the draft version the editor started from (0: there was none); another
 * save in between makes it stale (409 saying what changed). One audit row.
 */
export async function saveDraft(
  deps: PublishingDeps,
  kindName: string,
  key: string,
  input: { body: unknown; baseVersion: number },
  actor: AuditActor,
): Promise<{ version: number }> {
  const kind = kindOf(deps.kinds, kindName);
  const body = parseBody(kind, input.body);
  if ((await kind.current(deps.db, key)) === undefined) throw resourceNotFound();
  const now = deps.clock();
  return deps.db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    let version: number;
    const created =
      input.baseVersion === 0 &&
      (await repository.createDraft(tx, { kind: kind.kind, key, body, updatedAt: now, updatedBy: actor.label }));
    if (created) version = 1;
    else {
      const draft = await repository.findDraft(tx, kind.kind, key, true);
      if (!draft) throw resourceNotFound();
      if (draft.version !== input.baseVersion) throw await staleDraft(tx, kind, key, draft, body);
      version = await repository.updateDraft(tx, kind.kind, key, { body, updatedAt: now, updatedBy: actor.label });
    }
    await recordAudit(
      tx,
      actor,
      {
        action: 'publishing.draft_saved',
        targetType: kind.kind,
        targetId: key,
        before: null,
        after: { version, body },
      },
      now,
    );
    return { version };
  });
}

/** Applies `body` as the item's live state in `tx`; answers what it was before. */
async function applyIn(tx: Database, kind: PublishableKind, key: string, body: unknown) {
  const before = await kind.current(tx, key);
  if (before === undefined) throw resourceNotFound();
  await kind.apply(tx, key, body);
  return before;
}

async function invalidateFor(deps: Pick<PublishingDeps, 'invalidate'>, kind: PublishableKind, key: string) {
  const scopes = kind.cacheScopes(key);
  if (scopes === undefined) await deps.invalidate();
  else for (const scope of scopes) await deps.invalidate(scope);
}

export type PublishInput = { baseVersion: number; publishAt?: Date };

/**
 * Publishes the draft now (applied, audited with before and after, caches cleared on every instance after the
 * commit) or at `publishAt` (a scheduled publication and its job; applied by the worker then). The draft's version
 * goes one up: a second publish (or save) from the same version is stale. Scheduling again replaces what was
 * scheduled; publishing now cancels it.
 */
export async function publish(
  deps: PublishingDeps,
  kindName: string,
  key: string,
  input: PublishInput,
  actor: AuditActor,
) {
  const kind = kindOf(deps.kinds, kindName);
  const now = deps.clock();
  if ((await kind.current(deps.db, key)) === undefined) throw resourceNotFound();
  if (input.publishAt && input.publishAt.getTime() <= now.getTime()) {
    throw new ApiError(400, messages.pastSchedule, [
      { field: 'publishAt', code: 'invalid', message: messages.pastSchedule },
    ]);
  }
  const outcome = await deps.db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const draft = await repository.findDraft(tx, kind.kind, key, true);
    if (!draft)
      throw new ApiError(400, messages.noDraft, [{ field: 'version', code: 'invalid', message: messages.noDraft }]);
    if (draft.version !== input.baseVersion) throw await staleDraft(tx, kind, key, draft, undefined);
    const version = await repository.updateDraft(tx, kind.kind, key, {
      body: draft.body,
      updatedAt: now,
      updatedBy: actor.label,
    });
    const cancelled = await repository.cancelScheduled(tx, kind.kind, key);
    if (input.publishAt) {
      const scheduled = await repository.insertPublication(tx, {
        kind: kind.kind,
        key,
        body: draft.body,
        status: 'scheduled',
        publishAt: input.publishAt,
        createdBy: actor.label,
        createdAt: now,
      });
      await enqueue(
        tx,
        publicationJobKind,
        { publicationId: scheduled.id },
        `publication:${scheduled.id}`,
        input.publishAt,
      );
      await recordAudit(
        tx,
        actor,
        {
          action: 'publishing.scheduled',
          targetType: kind.kind,
          targetId: key,
          before: cancelled ? { cancelledPublication: cancelled.id } : null,
          after: { publication: scheduled.id, publishAt: input.publishAt.toISOString(), body: draft.body },
        },
        now,
      );
      return { publication: scheduled, version, applied: false };
    }
    const before = await applyIn(tx, kind, key, draft.body);
    const published = await repository.insertPublication(tx, {
      kind: kind.kind,
      key,
      body: draft.body,
      before,
      status: 'published',
      publishAt: now,
      // The real time, like the quotations' updated_at it is compared with (the comparator's notice).
      publishedAt: new Date(),
      createdBy: actor.label,
      createdAt: now,
    });
    await recordAudit(
      tx,
      actor,
      { action: 'publishing.published', targetType: kind.kind, targetId: key, before, after: draft.body },
      now,
    );
    return { publication: published, version, applied: true };
  });
  if (outcome.applied) await invalidateFor(deps, kind, key);
  return outcome;
}

/**
 * Publishes again an earlier published version of the item: what a publication made it (`after`) or what it was just
 * before it (`before`: undoing it, back to the state before the first publication included). A rollback is a
 * publication (applied at once, audited with before and after, caches cleared); the draft becomes that body too, and
 * a scheduled publication of the item is cancelled.
 */
export async function rollback(
  deps: PublishingDeps,
  kindName: string,
  key: string,
  to: { publicationId: number; side: 'after' | 'before' },
  actor: AuditActor,
) {
  const { publicationId } = to;
  const kind = kindOf(deps.kinds, kindName);
  const now = deps.clock();
  const outcome = await deps.db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const target = await repository.findPublication(tx, publicationId);
    if (!target || target.kind !== kind.kind || target.key !== key) throw resourceNotFound();
    if (target.status !== 'published') {
      throw new ApiError(400, messages.notPublished, [
        { field: 'publicationId', code: 'invalid', message: messages.notPublished },
      ]);
    }
    const restored = to.side === 'before' ? target.before : target.body;
    if (restored === null) throw resourceNotFound();
    // The draft row is the item's lock: a rollback and a publish of one item never interleave.
    const draft = await repository.findDraft(tx, kind.kind, key, true);
    if (!draft) throw resourceNotFound();
    const version = await repository.updateDraft(tx, kind.kind, key, {
      body: restored,
      updatedAt: now,
      updatedBy: actor.label,
    });
    // Like publishing now, a rollback cancels what was scheduled: it would otherwise overwrite what was rolled back to.
    const cancelled = await repository.cancelScheduled(tx, kind.kind, key);
    const before = await applyIn(tx, kind, key, restored);
    const published = await repository.insertPublication(tx, {
      kind: kind.kind,
      key,
      body: restored,
      before,
      status: 'published',
      publishAt: now,
      // The real time, like the quotations' updated_at it is compared with (the comparator's notice).
      publishedAt: new Date(),
      createdBy: actor.label,
      createdAt: now,
      rollbackOf: target.id,
    });
    await recordAudit(
      tx,
      actor,
      {
        action: 'publishing.rolled_back',
        targetType: kind.kind,
        targetId: key,
        before,
        after: {
          rollbackOf: target.id,
          side: to.side,
          body: restored,
          ...(cancelled ? { cancelledPublication: cancelled.id } : {}),
        },
      },
      now,
    );
    return { publication: published, version };
  });
  await invalidateFor(deps, kind, key);
  return outcome;
}

/** Cancels the item's scheduled publication (one audit row); 404 when none is scheduled. */
export async function cancelSchedule(deps: PublishingDeps, kindName: string, key: string, actor: AuditActor) {
  const kind = kindOf(deps.kinds, kindName);
  const now = deps.clock();
  if ((await kind.current(deps.db, key)) === undefined) throw resourceNotFound();
  await deps.db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const cancelled = await repository.cancelScheduled(tx, kind.kind, key);
    if (!cancelled) throw resourceNotFound();
    await recordAudit(
      tx,
      actor,
      {
        action: 'publishing.schedule_cancelled',
        targetType: kind.kind,
        targetId: key,
        before: { publication: cancelled.id, publishAt: cancelled.publishAt.toISOString() },
        after: null,
      },
      now,
    );
  });
}

/** The item's publications, newest first, each with its readable diff (a scheduled one: against the live item). */
export async function history(deps: PublishingDeps, kindName: string, key: string, limit = 50) {
  const kind = kindOf(deps.kinds, kindName);
  const live = await kind.current(deps.db, key);
  if (live === undefined) throw resourceNotFound();
  const rows = await repository.listPublications(deps.db, kind.kind, key, limit);
  return Promise.all(
    rows.map(async (row) => ({
      ...row,
      changes: await kind.describe(deps.db, key, row.status === 'published' ? row.before : live, row.body),
    })),
  );
}

/** A readable diff between the live item and a body (the draft), in the kind's words. */
export async function describeAgainstLive(deps: PublishingDeps, kindName: string, key: string, body: unknown) {
  const kind = kindOf(deps.kinds, kindName);
  const live = await kind.current(deps.db, key);
  if (live === undefined) throw resourceNotFound();
  return kind.describe(deps.db, key, live, body);
}

/**
 * Applies a scheduled publication, once: under its row's lock, a publication no longer scheduled (applied by another
 * worker, cancelled, replaced) is left alone, so any number of workers running the job apply it at most once. Answers
 * whether this run applied it.
 */
export async function applyScheduled(
  deps: Omit<PublishingDeps, 'clock'>,
  publicationId: number,
  now: Date,
): Promise<boolean> {
  const outcome = await deps.db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const publication = await repository.findPublication(tx, publicationId, true);
    if (publication?.status !== 'scheduled') return undefined;
    const kind = kindOf(deps.kinds, publication.kind);
    const before = await applyIn(tx, kind, publication.key, publication.body);
    await repository.markPublished(tx, publication.id, before, now);
    await recordAudit(
      tx,
      { label: `programado por ${publication.createdBy}`, ip: null },
      {
        action: 'publishing.published',
        targetType: kind.kind,
        targetId: publication.key,
        before,
        after: publication.body,
      },
      now,
    );
    return { kind, key: publication.key };
  });
  if (!outcome) return false;
  await invalidateFor(deps, outcome.kind, outcome.key);
  return true;
}

/** The job of a scheduled publication (queued with its time as run_after, so it is due exactly then). */
export function publicationJob(deps: Omit<PublishingDeps, 'clock'>): JobHandler<{ publicationId: number }> {
  return {
    payload: z.object({ publicationId: z.number().int().positive() }),
    run: async ({ publicationId }) => ({ applied: await applyScheduled(deps, publicationId, new Date()) }),
    logFields: ({ publicationId }) => ({ publicationId }),
  };
}
