import { errorMessages } from '@travesia/domain/messages';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError, type FieldError } from '#app/errors.ts';
import * as catalog from '#app/modules/catalog/service.ts';
import { passengerTypeProducts, productBenefits, productModalities, productRates, products } from './tables.ts';

/**
 * A plan itself as the publishing model edits it (issue 25 item 1, kind `plans`, key: the plan's id): its name,
 * «para quién», badge and colours, benefits with limits and priority (in order), the modalities, regions and age bands
 * it is sold for, its IVA, its image and general conditions (uploaded to the document store: plan-files.ts), and
 * whether it is retired. Prices are the other kind (prices.ts). Every text is plain text: tags and control characters
 * are removed when the draft is saved (the schema's transform), and the storefront renders it escaped (React).
 */

/** Plain text: control characters and anything tag-like removed, whitespace collapsed (sanitised on save). */
export function plainText(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
      .replace(/[\u0000-\u001f\u007f]/g, ' ')
      .replace(/<[^>]*>?/g, '')
      .replace(/[<>]/g, '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** A plain-text field of at most `max` characters once sanitised; `required`: the message when it is blank. */
export const plainTextField = (max: number, required?: string) =>
  z
    .string()
    .max(max * 4)
    .transform(plainText)
    .pipe(
      required
        ? z.string().min(1, required).max(max, `A lo más ${max} caracteres`)
        : z.string().max(max, `A lo más ${max} caracteres`),
    );

/** A colour is `#rrggbb` and nothing else (no CSS can ride in one). */
const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Un color se escribe #RRGGBB, como #0b5563');

/** An image path on this site (the seed's `/img/…` or an upload's `/api/plan-files/…`): never another scheme. */
const sitePath = z
  .string()
  .max(300)
  .regex(/^(\/(?!\/)[A-Za-z0-9._~/-]*)?$/, 'La imagen debe ser una ruta de este sitio (súbela en la consola)');

const id = z.number().int().positive().max(2_147_483_647);

/** The document store keys this module makes for uploads (plan-files.ts). */
export const conditionsKeyPattern = /^plan-conditions\/[0-9a-f-]{36}\.pdf$/;

export const planDetailsSchema = z
  .object({
    label: plainTextField(60, 'El plan necesita un nombre'),
    audience: plainTextField(140),
    badge: z.object({ label: plainTextField(30, 'La insignia necesita un texto'), color: colour }).nullable(),
    /** Spec §3 Plan preview: the colour that marks a plan for passengers over 75; null: none. */
    arrowColor: colour.nullable(),
    titleColor: colour,
    color: colour,
    isBestSeller: z.boolean(),
    medicalLimitUsd: z.number().int().min(0, 'La cobertura médica no puede ser negativa').max(100_000_000),
    /** In display order; priority ones are shown on the cards. */
    benefits: z
      .array(
        z.object({
          label: plainTextField(80, 'Cada beneficio necesita un nombre'),
          value: plainTextField(60, 'Cada beneficio necesita su límite'),
          isPriority: z.boolean(),
        }),
      )
      .max(40, 'A lo más 40 beneficios'),
    modalityIds: z.array(id).min(1, 'Elige al menos una modalidad').max(30),
    /** The destination regions it is sold for: one left out loses its prices; one without prices is not sold yet. */
    regionIds: z.array(id).max(200),
    passengerTypeIds: z.array(id).min(1, 'Elige al menos un tramo de edad').max(60),
    tax: z.object({
      enabled: z.boolean(),
      rateBp: z.number().int().min(0, 'El IVA no puede ser negativo').max(10_000, 'El IVA es a lo más 100 %'),
      /** Why it carries IVA or not, as the plan card says it (bodies saved before it existed read as ''). */
      reason: plainTextField(300).default(''),
    }),
    image: z.object({ large: sitePath, small: sitePath }),
    conditionsKey: z.string().regex(conditionsKeyPattern, 'Sube las condiciones generales en la consola').nullable(),
    retired: z.boolean(),
  })
  .strict();

export type PlanDetails = z.infer<typeof planDetailsSchema>;

const productIdOf = (key: string) => (/^\d{1,9}$/.test(key) ? Number(key) : undefined);

async function productOf(db: Database, key: string, companyId: number) {
  const productId = productIdOf(key);
  if (productId === undefined) return undefined;
  const [product] = await db.select().from(products).where(eq(products.id, productId));
  // The console edits its own company's plans only: another's is as unknown as a missing one.
  return product?.companyId === companyId ? product : undefined;
}

const distinctSorted = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);

/** The live plan as a body, or undefined for an unknown plan (or another company's). */
export async function readPlanDetails(db: Database, key: string, companyId: number): Promise<PlanDetails | undefined> {
  const product = await productOf(db, key, companyId);
  if (!product) return undefined;
  const [benefits, modalities, rates, bands] = await Promise.all([
    db
      .select()
      .from(productBenefits)
      .where(eq(productBenefits.productId, product.id))
      .orderBy(productBenefits.sortOrder, productBenefits.id),
    db.select().from(productModalities).where(eq(productModalities.productId, product.id)),
    db.select({ id: productRates.destinationId }).from(productRates).where(eq(productRates.productId, product.id)),
    db.select().from(passengerTypeProducts).where(eq(passengerTypeProducts.productId, product.id)),
  ]);
  return {
    label: product.label,
    audience: product.audience,
    badge:
      product.bestOptionLabel && product.bestOptionColor
        ? { label: product.bestOptionLabel, color: product.bestOptionColor }
        : null,
    arrowColor: product.arrowColor,
    titleColor: product.titleColor,
    color: product.color,
    isBestSeller: product.isBestSeller,
    medicalLimitUsd: product.medicalLimitUsd,
    benefits: benefits.map((b) => ({ label: b.label, value: b.value, isPriority: b.isPriority })),
    modalityIds: distinctSorted(modalities.map((m) => m.modalityId)),
    regionIds: distinctSorted(rates.map((r) => r.id)),
    passengerTypeIds: distinctSorted(bands.map((b) => b.passengerTypeId)),
    tax: { enabled: product.enableTax, rateBp: product.taxBp, reason: product.taxReason },
    image: { large: product.image, small: product.imageSmall },
    conditionsKey: product.conditionsKey,
    retired: product.retired,
  };
}

/**
 * Checks a body against the catalogue (modalities and age bands of the company, regions its modalities sell to) and
 * returns the field errors, empty when it can be applied. A region is sold only with prices, set in «Precios»: one
 * ticked back (a rollback) is sold again once it has them.
 */
async function problemsOf(db: Database, companyId: number, body: PlanDetails) {
  const [modalities, passengerTypes] = await Promise.all([
    catalog.listModalities(db, companyId),
    catalog.listPassengerTypes(db, companyId),
  ]);
  const errors: FieldError[] = [];
  const known = (field: string, ids: number[], allowed: Set<number>, message: string) => {
    ids.forEach((one, index) => {
      if (!allowed.has(one)) errors.push({ field: `body.${field}.${index}`, code: 'not_available', message });
    });
  };
  known('modalityIds', body.modalityIds, new Set(modalities.map((m) => m.id)), 'Modalidad desconocida');
  known('passengerTypeIds', body.passengerTypeIds, new Set(passengerTypes.map((t) => t.id)), 'Tramo desconocido');
  // A region is one a modality of the plan sells to; it is sold once it has prices («Precios»).
  const regions = new Set<number>();
  for (const modalityId of body.modalityIds) {
    for (const destination of await catalog.listDestinationsByModality(db, companyId, modalityId)) {
      regions.add(destination.id);
    }
  }
  known('regionIds', body.regionIds, regions, 'Región a la que ninguna modalidad del plan viaja');
  return errors;
}

/** The `products` columns a plan's body sets (applied on publish; laid over the stored row in a preview). */
export function productColumnsOf(body: PlanDetails) {
  return {
    label: body.label,
    audience: body.audience,
    bestOptionLabel: body.badge?.label ?? null,
    bestOptionColor: body.badge?.color ?? null,
    arrowColor: body.arrowColor,
    titleColor: body.titleColor,
    color: body.color,
    isBestSeller: body.isBestSeller,
    medicalLimitUsd: body.medicalLimitUsd,
    enableTax: body.tax.enabled,
    taxBp: body.tax.rateBp,
    taxReason: body.tax.reason,
    image: body.image.large,
    imageSmall: body.image.small,
    conditionsKey: body.conditionsKey,
    retired: body.retired,
  };
}

async function applyPlanDetails(tx: Database, key: string, body: PlanDetails, companyId: number) {
  const product = await productOf(tx, key, companyId);
  const live = product ? await readPlanDetails(tx, key, companyId) : undefined;
  if (!product || !live) throw new ApiError(404, errorMessages.resourceNotFound);
  const errors = await problemsOf(tx, companyId, body);
  if (errors.length > 0) throw new ApiError(400, 'Los datos del borrador no son válidos', errors);
  await tx.update(products).set(productColumnsOf(body)).where(eq(products.id, product.id));
  await tx.delete(productBenefits).where(eq(productBenefits.productId, product.id));
  if (body.benefits.length > 0) {
    await tx
      .insert(productBenefits)
      .values(body.benefits.map((b, index) => ({ ...b, productId: product.id, sortOrder: index + 1 })));
  }
  await tx.delete(productModalities).where(eq(productModalities.productId, product.id));
  await tx
    .insert(productModalities)
    .values(body.modalityIds.map((modalityId) => ({ productId: product.id, modalityId })));
  // A region no longer sold loses its prices (a rollback restores the plan, and «Precios» its prices).
  const regionFilter = body.regionIds.length > 0 ? notInArray(productRates.destinationId, body.regionIds) : undefined;
  await tx.delete(productRates).where(and(eq(productRates.productId, product.id), regionFilter));
  await tx
    .delete(passengerTypeProducts)
    .where(
      and(
        eq(passengerTypeProducts.productId, product.id),
        notInArray(passengerTypeProducts.passengerTypeId, body.passengerTypeIds),
      ),
    );
  const kept = await tx
    .select({ id: passengerTypeProducts.passengerTypeId })
    .from(passengerTypeProducts)
    .where(
      and(
        eq(passengerTypeProducts.productId, product.id),
        inArray(passengerTypeProducts.passengerTypeId, body.passengerTypeIds),
      ),
    );
  const added = body.passengerTypeIds.filter((one) => !kept.some((row) => row.id === one));
  if (added.length > 0) {
    await tx
      .insert(passengerTypeProducts)
      .values(added.map((passengerTypeId) => ({ passengerTypeId, productId: product.id })));
  }
}

const yesNo = (value: boolean) => (value ? 'sí' : 'no');
const quoted = (value: string) => (value === '' ? '(vacío)' : `«${value}»`);

/** One Spanish line per change between two versions of a plan. */
async function describePlan(db: Database, key: string, before: PlanDetails | null, after: PlanDetails) {
  const lines: string[] = [];
  const field = (name: string, from: string | null | undefined, to: string) => {
    if (from !== to) lines.push(`${name}: ${from ?? '—'} → ${to}`);
  };
  field('Nombre', before && quoted(before.label), quoted(after.label));
  field('Para quién', before && quoted(before.audience), quoted(after.audience));
  const badge = (b: PlanDetails['badge']) => (b ? `«${b.label}» (${b.color})` : 'sin insignia');
  field('Insignia', before && badge(before.badge), badge(after.badge));
  field('Color', before?.color, after.color);
  field('Color del título', before?.titleColor, after.titleColor);
  field('Color de mayores de 75', before ? (before.arrowColor ?? 'ninguno') : undefined, after.arrowColor ?? 'ninguno');
  field('Más vendido', before && yesNo(before.isBestSeller), yesNo(after.isBestSeller));
  field(
    'Cobertura médica (USD)',
    before?.medicalLimitUsd.toLocaleString('es-CL'),
    after.medicalLimitUsd.toLocaleString('es-CL'),
  );
  const benefits = (list: PlanDetails['benefits']) =>
    list.map((b, i) => `${i + 1}. ${b.label}: ${b.value}${b.isPriority ? ' (prioritario)' : ''}`).join('; ') ||
    'ninguno';
  field('Beneficios', before && benefits(before.benefits), benefits(after.benefits));
  const companyId = (await firstCompanyOf(db, key)) ?? 0;
  const [modalities, passengerTypes] = await Promise.all([
    catalog.listModalities(db, companyId),
    catalog.listPassengerTypes(db, companyId),
  ]);
  const names = (ids: number[], all: { id: number; label: string }[]) =>
    ids.map((one) => all.find((item) => item.id === one)?.label ?? `n.º ${one}`).join(', ') || 'ninguna';
  field('Modalidades', before && names(before.modalityIds, modalities), names(after.modalityIds, modalities));
  field('Regiones', before?.regionIds.join(', '), after.regionIds.join(', ') || 'ninguna');
  field(
    'Tramos de edad',
    before && names(before.passengerTypeIds, passengerTypes),
    names(after.passengerTypeIds, passengerTypes),
  );
  const tax = (t: PlanDetails['tax']) => (t.enabled ? `IVA ${(t.rateBp / 100).toLocaleString('es-CL')} %` : 'sin IVA');
  field('IVA', before && tax(before.tax), tax(after.tax));
  // Bodies saved before the reason existed have none: read as empty, not «undefined».
  field('Por qué lleva o no IVA', before && quoted(before.tax.reason ?? ''), quoted(after.tax.reason ?? ''));
  field('Imagen', before?.image.large, after.image.large || '(ninguna)');
  field(
    'Condiciones generales',
    before ? (before.conditionsKey ?? 'ninguna') : undefined,
    after.conditionsKey ?? 'ninguna',
  );
  if (!before || before.retired !== after.retired)
    lines.push(after.retired ? 'Plan retirado: no se cotiza' : 'Plan a la venta');
  return lines;
}

async function firstCompanyOf(db: Database, key: string) {
  const productId = productIdOf(key);
  if (productId === undefined) return undefined;
  const [row] = await db.select({ companyId: products.companyId }).from(products).where(eq(products.id, productId));
  return row?.companyId;
}

/** The kind's name and body shape (the same for every company). */
export const planDetailsKind = { kind: 'plans', schema: planDetailsSchema } as const;

/** The publishing kind of a company's plans (registered by workflows/publishing.ts). */
export const planDetailsKindOf = (companyId: number) => ({
  ...planDetailsKind,
  current: (db: Database, key: string) => readPlanDetails(db, key, companyId),
  apply: (tx: Database, key: string, body: PlanDetails) => applyPlanDetails(tx, key, body, companyId),
  // Plan searches, comparators, the passenger types a plan carries, the covid fees and the add-ons offered with each
  // plan (`add-ons:`, where the covid upgrade is moving) all read plans.
  cacheScopes: () => ['products:', 'covid-fees:', 'passenger-type-products:', 'add-ons:'],
  describe: describePlan,
});
