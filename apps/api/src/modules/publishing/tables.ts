import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The publishing model (issue 25, docs/decisions/019-publishing-model.md): what an operator changes is a draft per
 * item (kind + key) until it is published; every publication keeps the body before and after, so an item's history
 * and a rollback need nothing else. Only the publishing module reads or writes these; the module that owns the data
 * applies a publication through its kind's `apply` (kind.ts).
 */
export const publishingDrafts = pgTable(
  'publishing_drafts',
  {
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    body: jsonb('body').notNull(),
    /** Counts the saves: a save or publish names the version it was based on (optimistic check, 409 when stale). */
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    /** Who saved last, as the audit trail names them. */
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] })],
);

/** One publication of an item: scheduled (waiting for its time), published (applied), or cancelled. */
export const publications = pgTable(
  'publications',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    /** The body published (what the item became). */
    body: jsonb('body').notNull(),
    /** The item as it was just before, read in the publishing transaction; null while scheduled. */
    before: jsonb('before'),
    status: text('status', { enum: ['scheduled', 'published', 'cancelled'] }).notNull(),
    /** When it is to be applied (now for an immediate publish), and when it was. */
    publishAt: timestamp('publish_at', { withTimezone: true }).notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** A rollback names the publication whose body it published again. */
    rollbackOf: integer('rollback_of'),
  },
  (t) => [
    index('publications_item').on(t.kind, t.key, t.id),
    // At most one scheduled publication per item: scheduling again replaces it (the old one is cancelled).
    uniqueIndex('publications_one_scheduled').on(t.kind, t.key).where(sql`${t.status} = 'scheduled'`),
  ],
);
