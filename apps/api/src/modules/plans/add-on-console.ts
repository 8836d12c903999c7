import type { FieldError } from '@travesia/domain/field-errors';
import { formatUsd } from '@travesia/domain/money';
import { centsToDecimal } from '@travesia/domain/pricing';
import type { Database } from '#app/db/client.ts';
import { ApiError } from '#app/errors.ts';
import { type AuditActor, recordAudit } from '../audit/service.ts';
import * as catalog from '../catalog/service.ts';
import * as repository from './add-on-repository.ts';
import { hundredths } from './discount-console.ts';
import { listProductsOfCompany } from './repository.ts';

/**
 * The console's screen «Adicionales» (issue 27 §1): the company's add-ons with their price and who may buy them;
 * create and edit (optimistic version check) and deactivate, each audited in its transaction. Never deleted: a paid
 * purchase keeps pointing at its add-on. The covid upgrade (code `covid`) has its price per plan on «Precios»: here
 * only its texts, benefits, state and order change.
 */

export const covidCode = 'covid';

export const addOnConsoleMessages = {
  invalid: 'Revisa los datos del adicional.',
  notFound: 'No existe ese adicional.',
  taken: (code: string) => `Ya existe un adicional con el código ${code}. Elige otro código o edita el existente.`,
  stale: (version: number) =>
    `Otro operador guardó este adicional mientras lo editabas (ahora va en la versión ${version}). Revisa lo que cambió y vuelve a guardar.`,
  alreadyInactive: 'El adicional ya estaba desactivado.',
  covidReserved: 'El código covid es del upgrade covid: no se puede usar para otro adicional.',
  covidCode: 'El código del upgrade covid no se cambia.',
  covidPrice: 'El precio del upgrade covid se edita por plan en «Precios», no aquí.',
  covidFixed:
    'Del upgrade covid aquí solo cambian sus textos, beneficios, estado y orden: a quién se vende lo dan sus precios por plan.',
} as const;

/** What an operator writes: the price as the decimal text they typed, turned into cents or basis points here. */
export type AddOnInput = {
  code: string;
  name: string;
  description: string;
  benefits: { label: string; value: string }[];
  pricing: 'daily' | 'percent';
  priceUsdPerDay: string | null;
  planPercent: string | null;
  passengerTypeIds: number[];
  modalityIds: number[];
  destinationIds: number[];
  productIds: number[];
  buyableAfterPurchase: boolean;
  sortOrder: number;
  active?: boolean | undefined;
};

const percentText = (bp: number) => String(bp / 100);

/** «USD 2,50 por viajero por día», «30 % del plan». */
export function addOnPriceLabel(row: Pick<repository.AddOnRow, 'pricing' | 'priceCentsPerDay' | 'planPercentBp'>) {
  if (row.pricing === 'percent')
    return row.planPercentBp === null ? 'Sin precio' : `${percentText(row.planPercentBp).replace('.', ',')} % del plan`;
  return row.priceCentsPerDay === null
    ? 'Precio por plan (en «Precios»)'
    : `${formatUsd(row.priceCentsPerDay / 100)} por viajero por día`;
}

function view(row: repository.AddOnRow) {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    benefits: row.benefits,
    pricing: row.pricing,
    priceUsdPerDay:
      row.pricing === 'daily' && row.priceCentsPerDay !== null ? centsToDecimal(row.priceCentsPerDay) : null,
    planPercent: row.pricing === 'percent' && row.planPercentBp !== null ? percentText(row.planPercentBp) : null,
    priceLabel: addOnPriceLabel(row),
    passengerTypeIds: row.passengerTypeIds,
    modalityIds: row.modalityIds,
    destinationIds: row.destinationIds,
    productIds: row.productIds,
    buyableAfterPurchase: row.buyableAfterPurchase,
    active: row.active,
    sortOrder: row.sortOrder,
    /** The covid upgrade: its code and price are not edited here. */
    priceFixed: row.code === covidCode,
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
  };
}
export type AddOnView = ReturnType<typeof view>;

/** What the audit keeps of an add-on: what an operator can change, and its version. */
const audited = (row: repository.AddOnRow) => {
  const { updatedAt: _updated, priceLabel: _label, priceFixed: _fixed, ...kept } = view(row);
  return kept;
};

type Option = { id: number; label: string };

/** What the eligibility lists may name: the company's age bands, modalities, regions (those its modalities sell) and plans. */
async function catalogueOptions(db: Database, companyId: number) {
  const [passengerTypes, modalities, plans] = await Promise.all([
    catalog.listPassengerTypes(db, companyId),
    catalog.listModalities(db, companyId),
    listProductsOfCompany(db, companyId),
  ]);
  const regions = new Map<number, string>();
  for (const modality of modalities)
    for (const destination of await catalog.listDestinationsByModality(db, companyId, modality.id))
      regions.set(destination.id, destination.label);
  return {
    passengerTypes: passengerTypes.map((type): Option & { ageFrom: number; ageTo: number } => ({
      id: type.id,
      label: type.label,
      ageFrom: type.ageFrom,
      ageTo: type.ageTo,
    })),
    modalities: modalities.map((modality): Option => ({ id: modality.id, label: modality.label })),
    regions: [...regions].map(([id, label]): Option => ({ id, label })),
    plans: plans.map((plan): Option => ({ id: plan.id, label: plan.label })),
  };
}

export async function listAddOnsOfCompany(db: Database, companyId: number) {
  const [rows, options] = await Promise.all([repository.listAddOns(db, companyId), catalogueOptions(db, companyId)]);
  return { options, addOns: rows.map(view) };
}

export async function readAddOn(db: Database, companyId: number, id: number) {
  const row = await repository.findAddOn(db, companyId, id);
  if (!row) throw new ApiError(404, addOnConsoleMessages.notFound);
  return view(row);
}

const fieldError = (field: string, message: string, code: FieldError['code'] = 'invalid'): FieldError => ({
  field,
  code,
  message,
});

const eligibilityFields = [
  ['passengerTypeIds', 'passengerTypes', 'Elige tramos de edad de la compañía.'],
  ['modalityIds', 'modalities', 'Elige modalidades de la compañía.'],
  ['destinationIds', 'regions', 'Elige regiones de destino que la compañía vende.'],
  ['productIds', 'plans', 'Elige planes de la compañía.'],
] as const;

const distinctSorted = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);
const blank = (text: string | null) => text === null || text.trim() === '';

/** The price columns of what was typed, with the errors of the price fields (exactly one price, of the kind, in range). */
function priceOf(input: AddOnInput, errors: FieldError[]) {
  const daily = input.pricing === 'daily';
  const [given, other] = daily
    ? (['priceUsdPerDay', 'planPercent'] as const)
    : (['planPercent', 'priceUsdPerDay'] as const);
  if (!blank(input[other]))
    errors.push(
      fieldError(
        other,
        daily
          ? 'Un adicional con precio por día no lleva porcentaje: deja este campo en blanco.'
          : 'Un adicional con porcentaje del plan no lleva precio por día: deja este campo en blanco.',
      ),
    );
  const text = input[given];
  if (text === null || blank(text)) {
    const message = daily ? 'Indica el precio por viajero por día en dólares.' : 'Indica el porcentaje del plan.';
    errors.push(fieldError(given, message, 'required'));
    return { pricing: input.pricing, priceCentsPerDay: null, planPercentBp: null };
  }
  const value = hundredths(text);
  if (daily && (value < 1 || value > 100_000))
    errors.push(fieldError(given, 'El precio por día debe ser mayor que cero y a lo más USD 1.000.', 'out_of_range'));
  if (!daily && (value < 1 || value > 10_000))
    errors.push(fieldError(given, 'El porcentaje debe ser mayor que cero y a lo más 100.', 'out_of_range'));
  return daily
    ? { pricing: input.pricing, priceCentsPerDay: value, planPercentBp: null }
    : { pricing: input.pricing, priceCentsPerDay: null, planPercentBp: value };
}

/** The fields of the covid upgrade this screen does not change, each refused in words when the form changed it. */
function covidChanges(input: AddOnInput, current: repository.AddOnRow, errors: FieldError[]) {
  const shown = view(current);
  if (input.code !== covidCode) errors.push(fieldError('code', addOnConsoleMessages.covidCode));
  if (input.pricing !== current.pricing) errors.push(fieldError('pricing', addOnConsoleMessages.covidPrice));
  const typedUsd = blank(input.priceUsdPerDay) ? null : centsToDecimal(hundredths(input.priceUsdPerDay ?? ''));
  if (typedUsd !== shown.priceUsdPerDay) errors.push(fieldError('priceUsdPerDay', addOnConsoleMessages.covidPrice));
  const typedPercent = blank(input.planPercent) ? null : percentText(hundredths(input.planPercent ?? ''));
  if (typedPercent !== shown.planPercent) errors.push(fieldError('planPercent', addOnConsoleMessages.covidPrice));
  for (const [field] of eligibilityFields)
    if (distinctSorted(input[field]).join() !== distinctSorted(current[field]).join())
      errors.push(fieldError(field, addOnConsoleMessages.covidFixed));
  if (input.buyableAfterPurchase !== current.buyableAfterPurchase)
    errors.push(fieldError('buyableAfterPurchase', addOnConsoleMessages.covidFixed));
}

type Options = Awaited<ReturnType<typeof catalogueOptions>>;

/**
 * The checks that span fields or need the catalogue (the route's schema checked each field); answers the columns to
 * write. `current`: the add-on being edited; when it is the covid upgrade, only its texts, benefits, state and order
 * change.
 */
function checkedValues(input: AddOnInput, options: Options, current?: repository.AddOnRow) {
  const errors: FieldError[] = [];
  const covid = current?.code === covidCode;
  let price: Pick<repository.NewAddOn, 'pricing' | 'priceCentsPerDay' | 'planPercentBp'> = {
    pricing: current?.pricing ?? input.pricing,
  };
  if (current && covid) covidChanges(input, current, errors);
  else {
    if (input.code === covidCode) errors.push(fieldError('code', addOnConsoleMessages.covidReserved));
    price = priceOf(input, errors);
  }
  for (const [field, list, message] of eligibilityFields) {
    const own = new Set(options[list].map((option) => option.id));
    if (input[field].some((id) => !own.has(id))) errors.push(fieldError(field, message, 'not_available'));
  }
  if (errors.length > 0) throw new ApiError(400, addOnConsoleMessages.invalid, errors);
  const values = {
    code: input.code,
    name: input.name,
    description: input.description,
    benefits: input.benefits,
    passengerTypeIds: distinctSorted(input.passengerTypeIds),
    modalityIds: distinctSorted(input.modalityIds),
    destinationIds: distinctSorted(input.destinationIds),
    productIds: distinctSorted(input.productIds),
    buyableAfterPurchase: input.buyableAfterPurchase,
    sortOrder: input.sortOrder,
  };
  // The covid upgrade's price columns are never written here (its row keeps what «Precios» gave it). A percent add-on
  // has no per-plan day prices (the table's add_ons_price check): one that had them drops them with the switch.
  if (covid) return values;
  return price.pricing === 'percent' ? { ...values, ...price, planPrices: {} } : { ...values, ...price };
}

/**
 * A code is the company's once: code changes of the company's add-ons go one at a time (a transaction lock), and
 * one already taken is a 409 in words.
 */
async function claimCode(tx: Database, companyId: number, code: string, exceptId: number) {
  await repository.lockCodes(tx, companyId);
  if (await repository.codeTaken(tx, companyId, code, exceptId)) {
    const message = addOnConsoleMessages.taken(code);
    throw new ApiError(409, message, [fieldError('code', message, 'duplicate')]);
  }
}

export async function createAddOn(db: Database, companyId: number, actor: AuditActor, input: AddOnInput, at: Date) {
  const values = checkedValues(input, await catalogueOptions(db, companyId));
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    await claimCode(tx, companyId, input.code, 0);
    const row = await repository.insertAddOn(tx, {
      companyId,
      ...values,
      pricing: input.pricing,
      active: input.active ?? true,
    });
    if (!row) throw new ApiError(409, addOnConsoleMessages.taken(input.code));
    await recordAudit(
      tx,
      actor,
      { action: 'add_on.created', targetType: 'add_on', targetId: String(row.id), before: null, after: audited(row) },
      at,
    );
    return view(row);
  });
}

const fieldLabels: Record<string, string> = {
  code: 'Código',
  name: 'Nombre',
  description: 'Descripción',
  benefits: 'Beneficios',
  pricing: 'Tipo de precio',
  priceUsdPerDay: 'Precio por viajero por día (USD)',
  planPercent: 'Porcentaje del plan',
  passengerTypeIds: 'Tramos de edad',
  modalityIds: 'Modalidades',
  destinationIds: 'Regiones de destino',
  productIds: 'Planes',
  buyableAfterPurchase: 'Se puede agregar después de la compra',
  active: 'Estado',
  sortOrder: 'Orden',
};

const shown = (field: string, value: unknown) => {
  if (Array.isArray(value)) {
    if (value.length === 0) return 'todos';
    return field === 'benefits'
      ? value.map((benefit: { label: string; value: string }) => `${benefit.label}: ${benefit.value}`).join('; ')
      : value.join(', ');
  }
  if (value === null || value === undefined || value === '') return 'en blanco';
  if (field === 'active') return value ? 'activo' : 'desactivado';
  if (field === 'buyableAfterPurchase') return value ? 'sí' : 'no';
  if (field === 'pricing') return value === 'daily' ? 'por día' : 'porcentaje del plan';
  return String(value);
};

/**
 * A save from a form showing an older version: refused (409), naming each field whose value now differs from the
 * one sent, with its current value, so the operator sees what the other save changed before deciding again.
 */
function staleError(current: repository.AddOnRow, sent: Record<string, unknown>): ApiError {
  const now = view(current) as Record<string, unknown>;
  const errors = Object.keys(fieldLabels)
    .filter((field) => field in sent && JSON.stringify(now[field] ?? null) !== JSON.stringify(sent[field] ?? null))
    .map((field) => fieldError(field, `${fieldLabels[field]}: ahora dice «${shown(field, now[field])}».`, 'stale'));
  const message = addOnConsoleMessages.stale(current.version);
  return new ApiError(409, message, errors.length > 0 ? errors : [fieldError('version', message, 'stale')]);
}

/**
 * One change of an add-on in its transaction: the row locked, the version the form showed checked (409 naming what
 * changed), `changes` written (or a refusal from `refuse`), and one audit row with before and after.
 */
async function changeAddOn(
  db: Database,
  target: { companyId: number; id: number; version: number },
  actor: AuditActor,
  step: {
    action: 'add_on.updated' | 'add_on.deactivated';
    changes: (before: repository.AddOnRow) => repository.AddOnChanges;
    refuse?: (before: repository.AddOnRow) => ApiError | null;
  },
  at: Date,
) {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const before = await repository.lockAddOn(tx, target.companyId, target.id);
    if (!before) throw new ApiError(404, addOnConsoleMessages.notFound);
    const changes = step.changes(before);
    if (before.version !== target.version)
      throw staleError(before, view({ ...before, ...changes } as repository.AddOnRow));
    const refusal = step.refuse?.(before);
    if (refusal) throw refusal;
    if (changes.code !== undefined && changes.code !== before.code)
      await claimCode(tx, target.companyId, changes.code, before.id);
    const after = await repository.updateAddOn(tx, target.companyId, target.id, changes);
    if (!after) throw new ApiError(404, addOnConsoleMessages.notFound);
    await recordAudit(
      tx,
      actor,
      {
        action: step.action,
        targetType: 'add_on',
        targetId: String(target.id),
        before: audited(before),
        after: audited(after),
      },
      at,
    );
    return view(after);
  });
}

export async function updateAddOn(
  db: Database,
  companyId: number,
  actor: AuditActor,
  id: number,
  input: AddOnInput & { version: number },
  at: Date,
) {
  // Whether it is the covid upgrade never changes (its code is fixed, and no other add-on may take it).
  const [current, options] = await Promise.all([
    repository.findAddOn(db, companyId, id),
    catalogueOptions(db, companyId),
  ]);
  if (!current) throw new ApiError(404, addOnConsoleMessages.notFound);
  const values = checkedValues(input, options, current);
  return changeAddOn(
    db,
    { companyId, id, version: input.version },
    actor,
    { action: 'add_on.updated', changes: (before) => ({ ...values, active: input.active ?? before.active }) },
    at,
  );
}

export function deactivateAddOn(
  db: Database,
  companyId: number,
  actor: AuditActor,
  id: number,
  version: number,
  at: Date,
) {
  return changeAddOn(
    db,
    { companyId, id, version },
    actor,
    {
      action: 'add_on.deactivated',
      changes: () => ({ active: false }),
      refuse: (before) => {
        if (before.active) return null;
        const message = addOnConsoleMessages.alreadyInactive;
        return new ApiError(409, message, [fieldError('active', message, 'invalid_transition')]);
      },
    },
    at,
  );
}
