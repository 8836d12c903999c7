import { httpsOriginOf, scriptOfTagHtml } from '@travesia/domain/marketing-scripts';
import type { Database } from '#app/db/client.ts';
import { companyNotFound, resourceNotFound } from '#app/errors.ts';
import { readCache } from '#app/lib/cache/read-cache.ts';
import { findCompany, findDocument } from './repository.ts';
import type { CompanyDocumentKind, CompanyDocuments, FeatureFlags } from './schemas.ts';

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

/** The feature flags of spec §6: the console's published ones (kind `site-flags`), or the server configuration's. */
export async function featureFlagsOf(db: Database, companyId: number, configured: FeatureFlags): Promise<FeatureFlags> {
  return (await cachedDocument(db, companyId, 'features')) ?? configured;
}

/**
 * The marketing tags the storefront may render: only the two forms the console writes (packages/domain
 * marketing-scripts.ts), an external one only from an origin of the allow-list. Anything else stored (by SQL, or an
 * older snippet) is left out: it would otherwise run through the store's own trusted code.
 */
export function renderableScriptTags(
  website: Pick<CompanyDocuments['website'], 'companyScriptTags' | 'scriptOrigins'>,
) {
  const origins = new Set(website.scriptOrigins ?? []);
  return website.companyScriptTags.filter((tag) => {
    let html: string;
    try {
      html = Buffer.from(tag.customScript, 'base64').toString('utf8');
    } catch {
      return false;
    }
    const script = scriptOfTagHtml(html, tag.isBodyScript ? 'body' : 'head');
    if (!script) return false;
    return 'code' in script || origins.has(httpsOriginOf(script.src) ?? '');
  });
}
