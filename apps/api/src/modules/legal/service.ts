import type { Database } from '#app/db/client.ts';
import { resourceNotFound } from '#app/errors.ts';
import { readCache } from '#app/lib/cache/read-cache.ts';
import { getSeller } from '#app/modules/company/service.ts';
import * as repository from './repository.ts';
import { type LegalPageSlug, legalPageSlugs } from './schemas.ts';

export type { LegalPageSeed } from './schemas.ts';

const isLegalPageSlug = (slug: string): slug is LegalPageSlug => (legalPageSlugs as readonly string[]).includes(slug);

/** A legal page with the seller's details; a page the company has not written is a missing resource. */
export async function getLegalPage(db: Database, companyId: number, slug: string) {
  if (!isLegalPageSlug(slug)) throw resourceNotFound();
  // Keyed by a known slug only: three pages a company at most.
  const row = await readCache(db).get(`legal:${companyId}:${slug}`, () =>
    repository.findLegalPage(db, companyId, slug),
  );
  if (!row) throw resourceNotFound();
  return {
    slug,
    title: row.title,
    description: row.description,
    bodyHtml: row.bodyHtml,
    updatedAt: row.updatedAt.toISOString(),
    seller: await getSeller(db, companyId),
  };
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
