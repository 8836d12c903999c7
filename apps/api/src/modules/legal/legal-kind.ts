import { sanitizeHtml } from '@travesia/domain/sanitize-html';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError } from '#app/errors.ts';
import { plainText } from '#app/lib/editorial-fields.ts';
import * as repository from './repository.ts';
import { legalPageSlugs } from './schemas.ts';

/**
 * The legal pages (/terminos, /politicas, /informacion-legal) as the publishing model edits them (issue 25 item 7,
 * kind `legal-pages`, key: the page's slug). The body is stored HTML, sanitised on save by the storefront's
 * allow-list (and again where it is rendered). Every publication is a new **version**, kept for good
 * (legal_page_versions): a buyer's consent names the version it accepted, and «Mi compra» opens that very text.
 */
export const legalPageBodySchema = z
  .object({
    title: plainText(120),
    description: plainText(300),
    bodyHtml: z
      .string()
      .max(200_000, 'El texto es demasiado largo')
      .transform((html) => sanitizeHtml(html).trim())
      .pipe(z.string().min(1, 'Escribe el texto de la página')),
  })
  .strict();

export type LegalPageBody = z.infer<typeof legalPageBodySchema>;

const isSlug = (key: string) => (legalPageSlugs as readonly string[]).includes(key);

async function readLegalPage(db: Database, companyId: number, key: string): Promise<LegalPageBody | undefined> {
  if (!isSlug(key)) return undefined;
  const row = await repository.findLegalPage(db, companyId, key);
  return row ? { title: row.title, description: row.description, bodyHtml: row.bodyHtml } : undefined;
}

/** The words of a page's text, for a diff that says how much changed rather than dumping HTML. */
const wordsOf = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

export function describeLegalPage(before: LegalPageBody | null, after: LegalPageBody): string[] {
  const lines: string[] = [];
  if (before?.title !== after.title) lines.push(`Título: «${before?.title ?? '—'}» → «${after.title}»`);
  if (before?.description !== after.description) lines.push(`Descripción: «${after.description}»`);
  if (before?.bodyHtml !== after.bodyHtml) {
    const [old, next] = [new Set(wordsOf(before?.bodyHtml ?? '')), wordsOf(after.bodyHtml)];
    const added = next.filter((word) => !old.has(word)).length;
    lines.push(`Texto cambiado (${next.length} palabras; ${added} nuevas). Publicar crea una nueva versión.`);
  }
  return lines;
}

/** The kind's name and body shape (the same for every company). */
export const legalPagesKind = { kind: 'legal-pages', schema: legalPageBodySchema } as const;

/** The publishing kind of a company's legal pages (registered by workflows/publishing.ts). */
export const legalPagesKindOf = (companyId: number) => ({
  ...legalPagesKind,
  current: (db: Database, key: string) => readLegalPage(db, companyId, key),
  apply: async (tx: Database, key: string, body: LegalPageBody) => {
    const version = isSlug(key) ? await repository.publishLegalPage(tx, companyId, key, body) : undefined;
    if (version === undefined) throw new ApiError(404, 'Esta página legal no existe.');
  },
  cacheScopes: (key: string) => [`legal:${companyId}:${key}`],
  // A preview link opens the storefront's page with the draft; its token opens that page only.
  previewPath: async (_db: Database, key: string) => ({ path: `/${key}`, scope: legalPreviewScope(key) }),
  describe: async (_db: Database, _key: string, before: LegalPageBody | null, after: LegalPageBody) =>
    describeLegalPage(before, after),
});

/** What a legal page's preview token opens: that page's route, nothing else. */
export const legalPreviewScope = (slug: string) => `legal:${slug}`;
