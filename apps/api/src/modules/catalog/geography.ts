import { and, asc, eq, inArray, max } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError } from '#app/errors.ts';
import { plainText as text } from '#app/lib/editorial-fields.ts';
import { describeJsonChanges } from '#app/lib/json-diff.ts';
import type { PublishableKind } from '#app/modules/publishing/kind.ts';
import { sitePreviewScope } from '#app/modules/publishing/preview.ts';
import { countries, destinationCountries, destinationModalities, destinations, modalities, origins } from './tables.ts';

/**
 * «Geografía» (issue 25, item 5): the regions (destinations) with the countries they group and the modalities they
 * are sold for, the countries, and the origins, as one kind of the publishing model (ADR 019), `geography`, key
 * `main`. A region is **retired** by selling it for no modality (it stays for the quotations and sales that name
 * it); a region, country or origin is **deleted** by leaving it out, which the database refuses while a quotation
 * (unpaid or paid: a sale is a paid quotation) names it: that is a 409 in words, never a 500. Countries are shared by
 * every company of the database (ISO code unique): a country left out of the list is deleted only when no region of
 * any company groups it.
 */
export const geographyKey = 'main';

const id = z.number().int().positive().max(2_147_483_647).nullable();

export const geographySchema = z
  .object({
    regions: z
      .array(
        z
          .object({
            id,
            code: z
              .string()
              .trim()
              .regex(/^[A-Za-z0-9_-]{1,20}$/, 'Un código corto, como EUR o NORTEAMERICA (letras, números, - y _)'),
            label: text(80).pipe(z.string().min(1, 'Escribe el nombre de la región')),
            /** The modalities it is sold for; none: retired. */
            modalityIds: z.array(z.number().int().positive().max(2_147_483_647)).max(20),
            /** ISO codes of the countries it groups (each in `countries`). */
            countries: z.array(z.string()).max(300),
          })
          .strict(),
      )
      .min(1, 'La tienda necesita al menos una región')
      .max(60),
    countries: z
      .array(
        z
          .object({
            id,
            isoCode: z
              .string()
              .trim()
              .regex(/^[A-Z]{2}$/, 'El código ISO de dos letras mayúsculas, como ES'),
            label: text(80).pipe(z.string().min(1, 'Escribe el nombre del país')),
            /** In the Schengen area: its certificates carry the statement consulates ask for. */
            schengen: z.boolean().default(false),
          })
          .strict(),
      )
      .max(300),
    origins: z
      .array(z.object({ id, label: text(80).pipe(z.string().min(1, 'Escribe el nombre del origen')) }).strict())
      .min(1, 'La tienda necesita al menos un origen')
      .max(60),
  })
  .strict()
  .superRefine((body, context) => {
    const repeated = <T>(list: T[], keyOf: (item: T) => string, path: string, field: string, message: string) => {
      const seen = new Set<string>();
      list.forEach((item, index) => {
        const key = keyOf(item).toLowerCase();
        if (seen.has(key)) context.addIssue({ code: 'custom', path: [path, index, field], message });
        seen.add(key);
      });
    };
    repeated(body.regions, (r) => r.code, 'regions', 'code', 'Otra región ya usa este código');
    repeated(body.regions, (r) => r.label, 'regions', 'label', 'Otra región ya tiene este nombre');
    repeated(body.countries, (c) => c.isoCode, 'countries', 'isoCode', 'Otro país ya tiene este código');
    repeated(body.origins, (o) => o.label, 'origins', 'label', 'Otro origen ya tiene este nombre');
    const known = new Set(body.countries.map((c) => c.isoCode));
    body.regions.forEach((region, index) => {
      region.countries.forEach((code, at) => {
        if (!known.has(code))
          context.addIssue({
            code: 'custom',
            path: ['regions', index, 'countries', at],
            message: `El país ${code} no está en la lista de países`,
          });
      });
    });
  });

export type Geography = z.infer<typeof geographySchema>;

async function readGeography(db: Database, companyId: number): Promise<Geography> {
  // One query after another: `db` may be the publishing transaction (one connection, one query at a time).
  const regionRows = await db
    .select()
    .from(destinations)
    .where(eq(destinations.companyId, companyId))
    .orderBy(asc(destinations.sortOrder), asc(destinations.id));
  const sold = await db
    .select({ destinationId: destinationModalities.destinationId, modalityId: destinationModalities.modalityId })
    .from(destinationModalities)
    .innerJoin(destinations, eq(destinations.id, destinationModalities.destinationId))
    .where(eq(destinations.companyId, companyId))
    .orderBy(asc(destinationModalities.modalityId));
  const grouped = await db
    .select({ destinationId: destinationCountries.destinationId, isoCode: countries.isoCode })
    .from(destinationCountries)
    .innerJoin(countries, eq(countries.id, destinationCountries.countryId))
    .innerJoin(destinations, eq(destinations.id, destinationCountries.destinationId))
    .where(eq(destinations.companyId, companyId))
    .orderBy(asc(countries.isoCode));
  const countryRows = await db.select().from(countries).orderBy(asc(countries.label));
  const originRows = await db
    .select()
    .from(origins)
    .where(eq(origins.companyId, companyId))
    .orderBy(asc(origins.sortOrder), asc(origins.id));
  return {
    regions: regionRows.map((row) => ({
      id: row.id,
      code: row.code,
      label: row.label,
      modalityIds: sold.filter((s) => s.destinationId === row.id).map((s) => s.modalityId),
      countries: grouped.filter((g) => g.destinationId === row.id).map((g) => g.isoCode),
    })),
    countries: countryRows.map((row) => ({
      id: row.id,
      isoCode: row.isoCode,
      label: row.label,
      schengen: row.schengen,
    })),
    origins: originRows.map((row) => ({ id: row.id, label: row.label })),
  };
}

const conflict = (message: string) => new ApiError(409, message);

/** Whether `error` (or its cause) is Postgres' foreign-key violation: a row still named elsewhere. */
const isStillReferenced = (error: unknown): boolean => {
  for (let e = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23503') return true;
  }
  return false;
};

/** Deletes in a savepoint; a row still named by a quotation or sale is a 409 saying to retire it instead. */
async function deleteOrRefuse(tx: Database, remove: (sp: Database) => Promise<unknown>, message: string) {
  try {
    await tx.transaction(async (savepoint) => {
      await remove(savepoint as unknown as Database);
    });
  } catch (error) {
    if (isStillReferenced(error)) throw conflict(message);
    throw error;
  }
}

const nextIdOf = async (tx: Database, column: typeof destinations.id | typeof countries.id | typeof origins.id) => {
  const [row] = await tx.select({ top: max(column) }).from(column.table);
  return (row?.top ?? 0) + 1;
};

async function applyGeography(tx: Database, companyId: number, body: Geography) {
  const live = await readGeography(tx, companyId);
  const companyModalities = new Set(
    (await tx.select({ id: modalities.id }).from(modalities).where(eq(modalities.companyId, companyId))).map(
      (m) => m.id,
    ),
  );
  const fieldError = (field: string, message: string) =>
    new ApiError(400, message, [{ field, code: 'invalid', message }]);
  body.regions.forEach((region, index) => {
    region.modalityIds.forEach((modalityId, at) => {
      if (!companyModalities.has(modalityId))
        throw fieldError(`body.regions.${index}.modalityIds.${at}`, `La modalidad ${modalityId} no es de esta tienda`);
    });
    if (region.id !== null && !live.regions.some((r) => r.id === region.id))
      throw fieldError(`body.regions.${index}.id`, 'Esta región no es de esta tienda');
  });
  body.origins.forEach((origin, index) => {
    if (origin.id !== null && !live.origins.some((o) => o.id === origin.id))
      throw fieldError(`body.origins.${index}.id`, 'Este origen no es de esta tienda');
  });

  // Countries first (regions group them), by ISO code.
  const countryIds = new Map<string, number>();
  for (const country of body.countries) {
    const existing = live.countries.find((c) => c.isoCode === country.isoCode);
    if (existing?.id) {
      if (existing.label !== country.label || existing.schengen !== country.schengen) {
        await tx
          .update(countries)
          .set({ label: country.label, schengen: country.schengen })
          .where(eq(countries.id, existing.id));
      }
      countryIds.set(country.isoCode, existing.id);
    } else {
      const newId = await nextIdOf(tx, countries.id);
      await tx
        .insert(countries)
        .values({ id: newId, isoCode: country.isoCode, label: country.label, schengen: country.schengen });
      countryIds.set(country.isoCode, newId);
    }
  }

  // Regions: upsert, then their countries and modalities replaced.
  const keptRegions: number[] = [];
  for (const [sortOrder, region] of body.regions.entries()) {
    const existing = live.regions.find((r) => (region.id !== null ? r.id === region.id : r.code === region.code));
    let regionId = existing?.id ?? null;
    if (regionId !== null) {
      await tx
        .update(destinations)
        .set({ code: region.code, label: region.label, sortOrder })
        .where(eq(destinations.id, regionId));
    } else {
      regionId = await nextIdOf(tx, destinations.id);
      await tx
        .insert(destinations)
        .values({ id: regionId, companyId, code: region.code, label: region.label, sortOrder });
    }
    keptRegions.push(regionId);
    await tx.delete(destinationModalities).where(eq(destinationModalities.destinationId, regionId));
    await tx.delete(destinationCountries).where(eq(destinationCountries.destinationId, regionId));
    if (region.modalityIds.length > 0)
      await tx
        .insert(destinationModalities)
        .values([...new Set(region.modalityIds)].map((modalityId) => ({ destinationId: regionId, modalityId })));
    const grouped = [...new Set(region.countries)].flatMap((code) => {
      const countryId = countryIds.get(code);
      return countryId ? [{ destinationId: regionId, countryId }] : [];
    });
    if (grouped.length > 0) await tx.insert(destinationCountries).values(grouped);
  }
  for (const region of live.regions) {
    if (region.id === null || keptRegions.includes(region.id)) continue;
    const regionId = region.id;
    await deleteOrRefuse(
      tx,
      (sp) => sp.delete(destinations).where(eq(destinations.id, regionId)),
      `La región «${region.label}» está en cotizaciones o ventas: no se puede borrar. Retírala en su lugar (sin modalidades: deja de venderse y se conserva para lo ya cotizado).`,
    );
  }

  // Origins: upsert and delete what was left out.
  const keptOrigins: number[] = [];
  for (const [sortOrder, origin] of body.origins.entries()) {
    if (origin.id !== null) {
      await tx.update(origins).set({ label: origin.label, sortOrder }).where(eq(origins.id, origin.id));
      keptOrigins.push(origin.id);
    } else {
      const newId = await nextIdOf(tx, origins.id);
      await tx.insert(origins).values({ id: newId, companyId, label: origin.label, sortOrder });
      keptOrigins.push(newId);
    }
  }
  for (const origin of live.origins) {
    if (origin.id === null || keptOrigins.includes(origin.id)) continue;
    const originId = origin.id;
    await deleteOrRefuse(
      tx,
      (sp) => sp.delete(origins).where(and(eq(origins.id, originId), eq(origins.companyId, companyId))),
      `El origen «${origin.label}» está en cotizaciones o ventas: no se puede borrar; déjalo en la lista.`,
    );
  }

  // Countries left out: deleted when no region (of any company) groups them and no quotation names them.
  const kept = [...countryIds.values()];
  const leftOut = live.countries.filter((c) => c.id !== null && !kept.includes(c.id));
  if (leftOut.length > 0) {
    const ids = leftOut.flatMap((c) => (c.id === null ? [] : [c.id]));
    const stillGrouped = await tx
      .selectDistinct({ countryId: destinationCountries.countryId })
      .from(destinationCountries)
      .where(inArray(destinationCountries.countryId, ids));
    const groupedElsewhere = leftOut.find((c) => stillGrouped.some((g) => g.countryId === c.id));
    if (groupedElsewhere)
      throw conflict(`El país «${groupedElsewhere.label}» está en una región de otra tienda: no se puede borrar.`);
    for (const country of leftOut) {
      const countryId = country.id ?? 0;
      await deleteOrRefuse(
        tx,
        (sp) => sp.delete(countries).where(eq(countries.id, countryId)),
        `El país «${country.label}» está en cotizaciones o ventas: no se puede borrar. Retíralo en su lugar (quítalo de las regiones: deja de ofrecerse).`,
      );
    }
  }
}

/** The kind `geography` of a company (registered by workflows/publishing.ts). */
export const geographyKindOf = (companyId: number): PublishableKind<Geography> => ({
  kind: 'geography',
  schema: geographySchema,
  current: async (db, key) => (key === geographyKey ? readGeography(db, companyId) : undefined),
  apply: async (tx, key, body) => {
    if (key !== geographyKey) throw new ApiError(404, 'Esta geografía no existe.');
    await applyGeography(tx, companyId, body);
  },
  // A preview link opens the home page: its quoter offers the draft's origins and regions (catalogPreviewOf).
  previewPath: async () => ({ path: '/', scope: sitePreviewScope }),
  // Regions, countries and origins reach the quoter, the comparator, plan searches and kept pages: all of it.
  cacheScopes: () => undefined,
  describe: async (_db, _key, before, after) =>
    describeJsonChanges('Geografía', before, after, {
      regions: 'región',
      countries: 'país',
      origins: 'origen',
      label: 'nombre',
      code: 'código',
      isoCode: 'código ISO',
      schengen: 'Schengen',
      modalityIds: 'modalidades',
    }),
});

/** The storefront's catalogue lists as a geography draft makes them, for a preview link (never stored). */
export type CatalogPreview = {
  origins: { id: number; label: string }[];
  destinationsOf(modalityId: number): { id: number; label: string }[];
  countries: { id: number; label: string }[];
};

/**
 * The lists the quoter and the shell read, from a geography draft: the origins, the regions sold for each modality,
 * the countries the regions group. An item the draft adds has no id yet: it gets a negative one, which the store
 * shows but no quotation can name (quoting it is refused in words, as for a region not sold).
 */
export function catalogPreviewOf(body: Geography): CatalogPreview {
  let unsaved = 0;
  const idOf = (id: number | null) => id ?? --unsaved;
  const regions = body.regions.map((region) => ({ ...region, id: idOf(region.id) }));
  const countriesOf = body.countries.map((country) => ({ ...country, id: idOf(country.id) }));
  const grouped = new Set(regions.flatMap((region) => region.countries));
  const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label, 'es');
  return {
    origins: body.origins.map((origin) => ({ id: idOf(origin.id), label: origin.label })),
    destinationsOf: (modalityId) =>
      regions
        .filter((region) => region.modalityIds.includes(modalityId))
        .map((region) => ({ id: region.id, label: region.label })),
    countries: countriesOf
      .filter((country) => grouped.has(country.isoCode))
      .map((country) => ({ id: country.id, label: country.label }))
      .sort(byLabel),
  };
}
