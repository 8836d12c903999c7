import { and, eq } from 'drizzle-orm';
import { type Database, maxIntegerId } from '#app/db/client.ts';
import type { CompanyDocumentKind, CompanyDocuments } from './schemas.ts';
import { companies, companyDocuments } from './tables.ts';

export async function findCompany(db: Database, companyId: number) {
  if (companyId > maxIntegerId) return undefined;
  const [row] = await db.select().from(companies).where(eq(companies.id, companyId));
  return row;
}

export async function findDocument<K extends CompanyDocumentKind>(
  db: Database,
  companyId: number,
  kind: K,
): Promise<CompanyDocuments[K] | undefined> {
  const [row] = await db
    .select({ body: companyDocuments.body })
    .from(companyDocuments)
    .where(and(eq(companyDocuments.companyId, companyId), eq(companyDocuments.kind, kind)));
  return row?.body as CompanyDocuments[K] | undefined;
}

/** Writes a document (the publishing model's `apply`, in its transaction). */
export async function saveDocument<K extends CompanyDocumentKind>(
  db: Database,
  companyId: number,
  kind: K,
  body: CompanyDocuments[K],
) {
  await db
    .insert(companyDocuments)
    .values({ companyId, kind, body })
    .onConflictDoUpdate({
      target: [companyDocuments.companyId, companyDocuments.kind],
      set: { body, updatedAt: new Date() },
    });
}
