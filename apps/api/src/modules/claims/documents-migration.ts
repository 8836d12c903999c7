import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import type { DocumentStore } from '#app/integrations/document-store/index.ts';

/** The key a document stored in the database before the document store is moved to: one per row, so a rerun overwrites. */
export const movedDocumentKey = (fileId: number) => `refund-documents/moved-${fileId}`;

/** The rows of a raw query, as both drivers (node-postgres, PGlite) answer them. */
const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

const hasContentColumn = async (db: Database) => {
  const result = await db.execute(
    sql`SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'refund_files' AND column_name = 'content'`,
  );
  return rowsOf(result).length > 0;
};

/**
 * Moves the documents that earlier versions kept in `refund_files.content` (bytea) to the document store, one row at
 * a time (each at most 5 MB in memory), then drops the column. Runs at start-up after the migrations, under the
 * start-up lock (instances take turns); a run cut short leaves moved rows moved and resumes with the rest. Answers
 * how many documents it moved.
 */
export async function moveDocumentsToStore(db: Database, store: DocumentStore): Promise<number> {
  if (!(await hasContentColumn(db))) return 0;
  let moved = 0;
  for (;;) {
    const result = await db.execute(
      sql`SELECT id, content_type, content FROM refund_files WHERE storage_key IS NULL ORDER BY id LIMIT 1`,
    );
    const row = rowsOf(result)[0] as
      | { id: number; content_type: string; content: Buffer | Uint8Array | null }
      | undefined;
    if (!row) break;
    const key = movedDocumentKey(row.id);
    const bytes = row.content ? Buffer.from(row.content) : Buffer.alloc(0);
    await store.put(key, Readable.from([bytes]), row.content_type);
    await db.execute(sql`UPDATE refund_files SET storage_key = ${key}, content = NULL WHERE id = ${row.id}`);
    moved += 1;
  }
  await db.execute(sql`ALTER TABLE refund_files ALTER COLUMN storage_key SET NOT NULL`);
  await db.execute(sql`ALTER TABLE refund_files DROP COLUMN content`);
  return moved;
}
