import type { Database } from '#app/db/client.ts';
import { companyNotFound, resourceNotFound } from '#app/errors.ts';
import { findCompany, findDocument } from './repository.ts';
import type { CompanyDocumentKind, CompanyDocuments } from './schemas.ts';

/** Every company-scoped call starts here: an unknown company is spec §8's 404 «Company not found». */
export async function requireCompany(db: Database, companyId: number) {
  const company = await findCompany(db, companyId);
  if (!company) throw companyNotFound();
  return company;
}

/** A document the company has not configured is a missing resource, not an empty success. */
export async function requireDocument<K extends CompanyDocumentKind>(
  db: Database,
  companyId: number,
  kind: K,
): Promise<CompanyDocuments[K]> {
  await requireCompany(db, companyId);
  const document = await findDocument(db, companyId, kind);
  if (!document) throw resourceNotFound();
  return document;
}

export async function getCompanyInfo(db: Database, companyId: number) {
  const company = await requireCompany(db, companyId);
  const document = await findDocument(db, companyId, 'company-info');
  if (!document) throw resourceNotFound();
  return { id: company.id, name: company.name, address: company.address, ...document };
}
