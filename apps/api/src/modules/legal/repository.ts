import { and, eq } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import type { LegalPageSeed } from './schemas.ts';
import { legalPages } from './tables.ts';

export async function findLegalPage(db: Database, companyId: number, slug: string) {
  const [row] = await db
    .select()
    .from(legalPages)
    .where(and(eq(legalPages.companyId, companyId), eq(legalPages.slug, slug)));
  return row;
}

/** Writes a company's legal pages (the seed), inside the caller's transaction. */
export async function insertLegalPages(db: Database, companyId: number, pages: LegalPageSeed[]) {
  if (pages.length > 0) await db.insert(legalPages).values(pages.map((page) => ({ ...page, companyId })));
}
