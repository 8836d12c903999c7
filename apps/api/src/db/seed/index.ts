import { eq } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import * as t from '#app/db/schema.ts';
import { seedBlog } from '#app/modules/blog/service.ts';
import { isSchengenCountry } from '#app/modules/catalog/schengen.ts';
import { companyDocumentSchemas } from '#app/modules/company/schemas.ts';
import { seedLegalPages } from '#app/modules/legal/service.ts';
import { covidAddOn } from '#app/modules/plans/covid-add-on.ts';
import type { CompanySeed } from './types.ts';

/**
 * Writes a whole company in one transaction: either the store opens complete, or nothing is written.
 * Editorial documents are validated against their schemas first so a bad seed fails here, not in a visitor's page.
 */
export async function seedCompany(db: Database, seed: CompanySeed): Promise<void> {
  for (const [kind, schema] of Object.entries(companyDocumentSchemas)) {
    const document = seed.documents[kind as keyof typeof companyDocumentSchemas];
    if (document !== undefined || kind !== 'features') schema.parse(document);
  }
  const companyId = seed.company.id;
  await db.transaction(async (tx) => {
    await tx.insert(t.companies).values(seed.company);
    await tx
      .insert(t.companyDocuments)
      .values(Object.entries(seed.documents).map(([kind, body]) => ({ companyId, kind, body })));
    await tx.insert(t.origins).values(seed.origins.map((o, i) => ({ ...o, companyId, sortOrder: i })));
    await tx.insert(t.modalities).values(seed.modalities.map((m, i) => ({ ...m, companyId, sortOrder: i })));
    const existingCountries = await tx.select({ isoCode: t.countries.isoCode }).from(t.countries);
    const known = new Set(existingCountries.map((c) => c.isoCode));
    const newCountries = seed.countries.filter((c) => !known.has(c.isoCode));
    if (newCountries.length > 0) {
      await tx.insert(t.countries).values(newCountries.map((c) => ({ ...c, schengen: isSchengenCountry(c.isoCode) })));
    }
    const countryIds = new Map(
      (await tx.select({ id: t.countries.id, isoCode: t.countries.isoCode }).from(t.countries)).map((c) => [
        c.isoCode,
        c.id,
      ]),
    );
    for (const [index, destination] of seed.destinations.entries()) {
      await tx
        .insert(t.destinations)
        .values({ id: destination.id, companyId, code: destination.code, label: destination.label, sortOrder: index });
      await tx
        .insert(t.destinationModalities)
        .values(destination.modalityIds.map((modalityId) => ({ destinationId: destination.id, modalityId })));
      await tx.insert(t.destinationCountries).values(
        destination.countryIsoCodes.map((isoCode) => {
          const countryId = countryIds.get(isoCode);
          if (countryId === undefined)
            throw new Error(`Seed: destination ${destination.code} names unknown ${isoCode}`);
          return { destinationId: destination.id, countryId };
        }),
      );
    }
    await tx.insert(t.passengerTypes).values(seed.passengerTypes.map((p) => ({ ...p, companyId })));
    for (const [index, product] of seed.products.entries()) {
      const { passengerTypeIds, modalityIds, rates, benefits, ...columns } = product;
      await tx.insert(t.products).values({ ...columns, companyId, sortOrder: index });
      await tx
        .insert(t.passengerTypeProducts)
        .values(passengerTypeIds.map((passengerTypeId) => ({ passengerTypeId, productId: product.id })));
      await tx
        .insert(t.productModalities)
        .values(modalityIds.map((modalityId) => ({ productId: product.id, modalityId })));
      await tx.insert(t.productRates).values(rates.map((rate) => ({ ...rate, productId: product.id })));
      await tx
        .insert(t.productBenefits)
        .values(benefits.map((benefit, order) => ({ ...benefit, productId: product.id, sortOrder: order })));
    }
    if (seed.discountCodes.length > 0) {
      await tx.insert(t.discountCodes).values(seed.discountCodes.map((code) => ({ ...code, companyId })));
    }
    // Every company has the covid upgrade's add-on (docs/pricing.md «Add-ons»), offered with no plan if the seed has none.
    const addOns = seed.addOns.some((addOn) => addOn.code === covidAddOn.code)
      ? seed.addOns
      : [...seed.addOns, { ...covidAddOn, benefits: [...covidAddOn.benefits] }];
    await tx.insert(t.addOns).values(addOns.map((addOn, i) => ({ ...addOn, companyId, sortOrder: i })));
    await tx.insert(t.exchangeRates).values({ ...seed.exchangeRate, companyId, validFrom: new Date(0) });
    await tx.insert(t.faqEntries).values(seed.faqs.map((f, i) => ({ ...f, companyId, sortOrder: i })));
    await tx.insert(t.subjects).values(seed.subjects.map((s, i) => ({ ...s, companyId, sortOrder: i })));
    await tx.insert(t.contactInfos).values(seed.contactInfos.map((c, i) => ({ ...c, companyId, sortOrder: i })));
    await tx.insert(t.contacts).values(seed.contacts.map((c, i) => ({ ...c, companyId, sortOrder: i })));
    await tx.insert(t.paymentGateways).values(seed.paymentGateways.map((g, i) => ({ ...g, companyId, sortOrder: i })));
    await seedBlog(tx, companyId, seed.blog);
    await seedLegalPages(tx, companyId, seed.legalPages);
  });
}

/**
 * Seeds the company only when it is not there yet, so restarts never duplicate or overwrite anything. Instances that
 * may start at once run it under the start-up lock (`DatabaseHandle.migrate`'s setup), so only one of them seeds.
 */
export async function ensureCompanySeeded(db: Database, seed: CompanySeed): Promise<boolean> {
  const [existing] = await db
    .select({ id: t.companies.id })
    .from(t.companies)
    .where(eq(t.companies.id, seed.company.id));
  if (existing) return false;
  await seedCompany(db, seed);
  return true;
}
