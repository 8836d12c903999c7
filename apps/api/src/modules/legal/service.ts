import type { Database } from '#app/db/client.ts';
import { resourceNotFound } from '#app/errors.ts';
import { readCache } from '#app/lib/cache/read-cache.ts';
import { getSeller } from '#app/modules/company/service.ts';
import * as repository from './repository.ts';
import { type LegalPageSlug, legalPageSlugs } from './schemas.ts';

export type { LegalPageSeed } from './schemas.ts';

const isLegalPageSlug = (slug: string): slug is LegalPageSlug => (legalPageSlugs as readonly string[]).includes(slug);

/**
 * A legal page with the seller's details: the version in force, or an earlier one by its number (what a buyer
 * accepted then). A page the company has not written, or a version it never published, is a missing resource.
 */
export async function getLegalPage(db: Database, companyId: number, slug: string, version?: number) {
  if (!isLegalPageSlug(slug)) throw resourceNotFound();
  // The page in force is keyed by a known slug only: three pages a company at most. An earlier version is read as
  // asked (rare: a link from «Mi compra»), never kept, so no number a client invents fills the cache.
  const current = await readCache(db).get(`legal:${companyId}:${slug}`, () =>
    repository.findLegalPage(db, companyId, slug),
  );
  if (!current) throw resourceNotFound();
  const shown =
    version === undefined || version === current.version
      ? { ...current, publishedAt: current.updatedAt }
      : await repository.findLegalPageVersion(db, companyId, slug, version);
  if (!shown) throw resourceNotFound();
  return {
    slug,
    title: shown.title,
    description: shown.description,
    bodyHtml: shown.bodyHtml,
    updatedAt: shown.publishedAt.toISOString(),
    version: shown.version,
    currentVersion: current.version,
    seller: await getSeller(db, companyId),
  };
}

/** Each legal page's first version (slug → 1 and its date): what a consent from before versions accepted. */
export async function firstLegalVersions(db: Database, companyId: number) {
  const rows = await repository.listFirstVersions(db, companyId);
  return Object.fromEntries(
    rows.map((row) => [row.slug, { version: row.version, publishedAt: row.publishedAt.toISOString() }]),
  );
}

/** The version in force of each legal page (slug → number and date), for the consent a buyer gives now. */
export async function currentLegalVersions(db: Database, companyId: number) {
  const rows = await repository.listCurrentVersions(db, companyId);
  return Object.fromEntries(
    rows.map((row) => [row.slug, { version: row.version, publishedAt: row.updatedAt.toISOString() }]),
  );
}

/** Writes a company's legal pages, inside the caller's transaction (the seed). */
export const seedLegalPages = repository.insertLegalPages;

/** The file name the general conditions download under. */
export const conditionsFileName = 'condiciones-generales.pdf';

/** The general conditions as a printable PDF: the company's terms page (/terminos), as written in this module. */
export async function generalConditionsPdf(db: Database, companyId: number): Promise<Uint8Array> {
  const page = await getLegalPage(db, companyId, 'terminos');
  // The PDF writer (pdf-lib) is loaded with the first PDF, not at start-up.
  const { renderConditionsPdf } = await import('./pdf.ts');
  return renderConditionsPdf(page);
}
