import type { Database } from '#app/db/client.ts';
import { readCache } from '#app/lib/cache/read-cache.ts';
import * as repository from './repository.ts';

/** FAQ grouped by category, categories in the order of their first question (spec §3 FAQ). */
export async function listFaq(db: Database, companyId: number) {
  const entries = await readCache(db).get(`faq:${companyId}`, () => repository.listFaqEntries(db, companyId));
  const byCategory = new Map<string, { question: string; answer: string }[]>();
  for (const entry of entries) {
    const contents = byCategory.get(entry.category) ?? [];
    contents.push({ question: entry.question, answer: entry.answer });
    byCategory.set(entry.category, contents);
  }
  return [...byCategory].map(([category, contents]) => ({ category, contents }));
}

export async function listSubjects(db: Database, companyId: number) {
  return readCache(db).get(`subjects:${companyId}`, () => repository.listSubjects(db, companyId));
}

export async function listContactInfos(db: Database, companyId: number) {
  return readCache(db).get(`contact-infos:${companyId}`, () => repository.listContactInfos(db, companyId));
}

/**
 * The contact directory. `onlyEmergencyOrSale` true keeps the emergency and sales entries (what a caller in a
 * hurry needs); false gives the whole directory. Emails go out wrapped as `{ email }` (spec §7).
 */
export async function listContacts(db: Database, companyId: number, onlyEmergencyOrSale: boolean) {
  const rows = await readCache(db).get(`contacts:${companyId}:${onlyEmergencyOrSale}`, () =>
    repository.listContacts(db, companyId, onlyEmergencyOrSale),
  );
  return rows.map(contactOfRow);
}

/** A directory row as the storefront (and the console's kind `site-contacts`) reads it. */
export const contactOfRow = (row: Awaited<ReturnType<typeof repository.listContacts>>[number]) => ({
  category: row.category,
  label: row.label,
  isEmergency: row.isEmergency,
  isSaleContact: row.isSaleContact,
  isPrioritized: row.isPrioritized,
  phones: row.phones,
  whatsapp: { phone1: row.whatsappPhone1, phone2: row.whatsappPhone2 },
  emails: row.emails.map((email) => ({ email })),
  url: row.urlHref ? { href: row.urlHref, label: row.urlLabel ?? row.urlHref } : null,
  banner: row.banner,
});
