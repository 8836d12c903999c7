import type { Database } from '#app/db/client.ts';
import { companyNotFound, resourceNotFound } from '#app/errors.ts';
import { readCache } from '#app/lib/cache/read-cache.ts';
import { findCompany, findDocument } from './repository.ts';
import type { CompanyDocumentKind, CompanyDocuments } from './schemas.ts';

/**
 * An unknown company is spec §8's 404 «Company not found». The route-level hook (app.ts) asks this once for every
 * call whose path names a company; services that receive a company id from a stored row need not ask again.
 */
export async function requireCompany(db: Database, companyId: number) {
  const company = await readCache(db).get(`company:${companyId}`, () => findCompany(db, companyId));
  if (!company) throw companyNotFound();
  return company;
}

/** A company document (navigation bar, footer, website…), read through the catalogue cache. */
const cachedDocument = <K extends CompanyDocumentKind>(db: Database, companyId: number, kind: K) =>
  readCache(db).get(`document:${companyId}:${kind}`, () => findDocument(db, companyId, kind));

/** A document the company has not configured is a missing resource, not an empty success. */
export async function requireDocument<K extends CompanyDocumentKind>(
  db: Database,
  companyId: number,
  kind: K,
): Promise<CompanyDocuments[K]> {
  const document = await cachedDocument(db, companyId, kind);
  if (!document) throw resourceNotFound();
  return document;
}

export async function getCompanyInfo(db: Database, companyId: number) {
  const company = await requireCompany(db, companyId);
  const document = await cachedDocument(db, companyId, 'company-info');
  if (!document) throw resourceNotFound();
  return { id: company.id, name: company.name, address: company.address, ...document };
}

/**
 * Who sells: the details a consumer must find in the store (Ley 19.496, art. 12 A and the e-commerce rules of
 * SERNAC): trade name, legal name, RUT, legal address and a contact e-mail and phone (null until configured).
 */
export async function getSeller(db: Database, companyId: number) {
  const company = await requireCompany(db, companyId);
  return {
    name: company.name,
    legalName: company.legalName,
    rut: company.rut,
    address: company.address,
    email: company.contactEmail,
    phone: company.contactPhone,
  };
}
