import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import type { LegalPageSeed } from './schemas.ts';
import { legalPages, legalPageVersions } from './tables.ts';

export async function findLegalPage(db: Database, companyId: number, slug: string) {
  const [row] = await db
    .select()
    .from(legalPages)
    .where(and(eq(legalPages.companyId, companyId), eq(legalPages.slug, slug)));
  return row;
}

/** One published version of a page, or undefined. */
export async function findLegalPageVersion(db: Database, companyId: number, slug: string, version: number) {
  const [row] = await db
    .select()
    .from(legalPageVersions)
    .where(
      and(
        eq(legalPageVersions.companyId, companyId),
        eq(legalPageVersions.slug, slug),
        eq(legalPageVersions.version, version),
      ),
    );
  return row;
}

/** The versions of a page, newest first (number and date). */
export function listLegalPageVersions(db: Database, companyId: number, slug: string) {
  return db
    .select({ version: legalPageVersions.version, publishedAt: legalPageVersions.publishedAt })
    .from(legalPageVersions)
    .where(and(eq(legalPageVersions.companyId, companyId), eq(legalPageVersions.slug, slug)))
    .orderBy(desc(legalPageVersions.version));
}

/** Version 1 of each of the company's pages. */
export function listFirstVersions(db: Database, companyId: number) {
  return db
    .select({
      slug: legalPageVersions.slug,
      version: legalPageVersions.version,
      publishedAt: legalPageVersions.publishedAt,
    })
    .from(legalPageVersions)
    .where(and(eq(legalPageVersions.companyId, companyId), eq(legalPageVersions.version, 1)));
}

/** The version in force of each of the company's pages (what a buyer accepts now). */
export function listCurrentVersions(db: Database, companyId: number) {
  return db
    .select({ slug: legalPages.slug, version: legalPages.version, updatedAt: legalPages.updatedAt })
    .from(legalPages)
    .where(eq(legalPages.companyId, companyId));
}

/**
 * Makes `text` the page's new version, in the caller's transaction: the page row takes it (its number one more, under
 * the row's lock) and the versions table keeps it for good. Answers the new version's number, or undefined for a page
 * the company has not written.
 */
export async function publishLegalPage(
  tx: Database,
  companyId: number,
  slug: string,
  text: { title: string; description: string; bodyHtml: string },
): Promise<number | undefined> {
  const [row] = await tx
    .update(legalPages)
    .set({ ...text, version: sql`${legalPages.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(legalPages.companyId, companyId), eq(legalPages.slug, slug)))
    .returning({ version: legalPages.version, updatedAt: legalPages.updatedAt });
  if (!row) return undefined;
  await tx
    .insert(legalPageVersions)
    .values({ companyId, slug, version: row.version, ...text, publishedAt: row.updatedAt });
  return row.version;
}

/** Writes a company's legal pages (the seed) as their version 1, inside the caller's transaction. */
export async function insertLegalPages(db: Database, companyId: number, pages: LegalPageSeed[]) {
  if (pages.length === 0) return;
  await db.insert(legalPages).values(pages.map((page) => ({ ...page, companyId })));
  await db.insert(legalPageVersions).values(pages.map((page) => ({ ...page, companyId, version: 1 })));
}
