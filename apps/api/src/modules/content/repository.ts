import { and, asc, eq, or } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { contactInfos, contacts, faqEntries, subjects } from './tables.ts';

export function listFaqEntries(db: Database, companyId: number) {
  return db
    .select()
    .from(faqEntries)
    .where(eq(faqEntries.companyId, companyId))
    .orderBy(asc(faqEntries.sortOrder), asc(faqEntries.id));
}

export function listSubjects(db: Database, companyId: number) {
  return db
    .select({ id: subjects.id, label: subjects.label })
    .from(subjects)
    .where(eq(subjects.companyId, companyId))
    .orderBy(asc(subjects.sortOrder), asc(subjects.id));
}

export function listContactInfos(db: Database, companyId: number) {
  return db
    .select({
      label: contactInfos.label,
      phone: contactInfos.phone,
      whatsapp: contactInfos.whatsapp,
      icon: contactInfos.icon,
      isEmergency: contactInfos.isEmergency,
      isSaleContact: contactInfos.isSaleContact,
    })
    .from(contactInfos)
    .where(eq(contactInfos.companyId, companyId))
    .orderBy(asc(contactInfos.sortOrder), asc(contactInfos.id));
}

export function listContacts(db: Database, companyId: number, onlyEmergencyOrSale: boolean) {
  const ofCompany = eq(contacts.companyId, companyId);
  return db
    .select()
    .from(contacts)
    .where(
      onlyEmergencyOrSale
        ? and(ofCompany, or(eq(contacts.isEmergency, true), eq(contacts.isSaleContact, true)))
        : ofCompany,
    )
    .orderBy(asc(contacts.sortOrder), asc(contacts.id));
}

type ContactInfoRow = Omit<typeof contactInfos.$inferInsert, 'id' | 'companyId' | 'sortOrder'>;
type ContactRow = Omit<typeof contacts.$inferInsert, 'id' | 'companyId' | 'sortOrder'>;

/** Replaces the help modal's entries and the directory of a company, in the given order (the publishing `apply`). */
export async function replaceContacts(
  tx: Database,
  companyId: number,
  help: ContactInfoRow[],
  directory: ContactRow[],
) {
  await tx.delete(contactInfos).where(eq(contactInfos.companyId, companyId));
  await tx.delete(contacts).where(eq(contacts.companyId, companyId));
  if (help.length > 0) {
    await tx.insert(contactInfos).values(help.map((row, sortOrder) => ({ ...row, companyId, sortOrder })));
  }
  if (directory.length > 0) {
    await tx.insert(contacts).values(directory.map((row, sortOrder) => ({ ...row, companyId, sortOrder })));
  }
}

/** Replaces the company's FAQ with `categories` in order (the FAQ kind's apply, in the publishing transaction). */
export async function replaceFaqEntries(
  tx: Database,
  companyId: number,
  categories: { name: string; questions: { question: string; answer: string }[] }[],
) {
  await tx.delete(faqEntries).where(eq(faqEntries.companyId, companyId));
  const rows = categories.flatMap((category) =>
    category.questions.map((entry) => ({ companyId, category: category.name, ...entry })),
  );
  if (rows.length > 0) await tx.insert(faqEntries).values(rows.map((row, sortOrder) => ({ ...row, sortOrder })));
}
