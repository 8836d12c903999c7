import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { publications, publishingDrafts } from './tables.ts';

export type DraftRow = typeof publishingDrafts.$inferSelect;
export type PublicationRow = typeof publications.$inferSelect;

const itemIs = (kind: string, key: string) => and(eq(publishingDrafts.kind, kind), eq(publishingDrafts.key, key));
const publicationOf = (kind: string, key: string) => and(eq(publications.kind, kind), eq(publications.key, key));

export async function findDraft(db: Database, kind: string, key: string, lock = false): Promise<DraftRow | undefined> {
  const query = db.select().from(publishingDrafts).where(itemIs(kind, key));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** Creates the item's draft at version 1, unless one exists (then nothing: the caller reads it locked). */
export async function createDraft(db: Database, row: Omit<DraftRow, 'version'>): Promise<boolean> {
  const inserted = await db
    .insert(publishingDrafts)
    .values({ ...row, version: 1 })
    .onConflictDoNothing()
    .returning({ version: publishingDrafts.version });
  return inserted.length > 0;
}

/** Replaces the draft's body, one version up. Answers the new version. */
export async function updateDraft(
  db: Database,
  kind: string,
  key: string,
  values: { body: unknown; updatedAt: Date; updatedBy: string },
): Promise<number> {
  const [row] = await db
    .update(publishingDrafts)
    .set({ ...values, version: sql`${publishingDrafts.version} + 1` })
    .where(itemIs(kind, key))
    .returning({ version: publishingDrafts.version });
  return row?.version ?? 0;
}

export async function insertPublication(db: Database, row: typeof publications.$inferInsert): Promise<PublicationRow> {
  const [inserted] = await db.insert(publications).values(row).returning();
  if (!inserted) throw new Error('publication not inserted');
  return inserted;
}

export async function findPublication(db: Database, id: number, lock = false): Promise<PublicationRow | undefined> {
  const query = db.select().from(publications).where(eq(publications.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function findScheduled(db: Database, kind: string, key: string): Promise<PublicationRow | undefined> {
  const [row] = await db
    .select()
    .from(publications)
    .where(and(publicationOf(kind, key), eq(publications.status, 'scheduled')));
  return row;
}

/** Cancels the item's scheduled publication, if any; answers it. */
export async function cancelScheduled(db: Database, kind: string, key: string): Promise<PublicationRow | undefined> {
  const [row] = await db
    .update(publications)
    .set({ status: 'cancelled' })
    .where(and(publicationOf(kind, key), eq(publications.status, 'scheduled')))
    .returning();
  return row;
}

export async function markPublished(db: Database, id: number, before: unknown, at: Date) {
  await db
    .update(publications)
    .set({ status: 'published', before: before ?? null, publishedAt: at })
    .where(eq(publications.id, id));
}

/** The item's publications, newest first (scheduled and cancelled ones included). */
export function listPublications(db: Database, kind: string, key: string, limit: number) {
  return db.select().from(publications).where(publicationOf(kind, key)).orderBy(desc(publications.id)).limit(limit);
}

/** Which of `keys` had a publication of `kind` applied after `since`. */
export async function keysPublishedSince(db: Database, kind: string, keys: string[], since: Date): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectDistinct({ key: publications.key })
    .from(publications)
    .where(
      and(
        eq(publications.kind, kind),
        inArray(publications.key, keys),
        eq(publications.status, 'published'),
        gt(publications.publishedAt, since),
      ),
    );
  return rows.map((row) => row.key);
}

/** The keys of a kind that have a publication scheduled (the blog's list: «programado»). */
export async function scheduledKeys(db: Database, kind: string): Promise<string[]> {
  const rows = await db
    .select({ key: publications.key })
    .from(publications)
    .where(and(eq(publications.kind, kind), eq(publications.status, 'scheduled')));
  return rows.map((row) => row.key);
}
