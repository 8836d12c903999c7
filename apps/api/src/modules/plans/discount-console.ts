import { todayInChile } from '@travesia/domain/dates';
import type { FieldError } from '@travesia/domain/field-errors';
import { formatClp, formatUsd } from '@travesia/domain/money';
import { centsToDecimal } from '@travesia/domain/pricing';
import type { Database } from '#app/db/client.ts';
import { ApiError } from '#app/errors.ts';
import { type AuditActor, recordAudit } from '../audit/service.ts';
import * as repository from './discount-repository.ts';
import { listProductIdsOfCompany, listProductsByIds } from './repository.ts';

/**
 * The console's screen «Códigos de descuento» (issue 25 item 3): the company's codes with their state, usage and
 * revenue; create, edit (optimistic version check) and deactivate, each audited in its transaction.
 */

export const discountCodeStates = ['activo', 'programado', 'vencido', 'agotado', 'desactivado'] as const;
export type DiscountCodeState = (typeof discountCodeStates)[number];

export const discountConsoleMessages = {
  invalid: 'Revisa los datos del código de descuento.',
  notFound: 'No existe ese código de descuento.',
  taken: (code: string) => `Ya existe el código ${code}. Elige otro nombre o edita el existente.`,
  stale: (version: number) =>
    `Otro operador guardó este código mientras lo editabas (ahora va en la versión ${version}). Revisa lo que cambió y vuelve a guardar.`,
  alreadyInactive: 'El código ya estaba desactivado.',
} as const;

/** What an operator writes: amounts as the decimal text they typed, turned into cents and basis points here. */
export type DiscountCodeInput = {
  kind: 'percent' | 'amount';
  percent?: string | null | undefined;
  amountUsd?: string | null | undefined;
  validFrom: string;
  validTo: string;
  maxUses: number | null;
  maxUsesPerBuyer: number | null;
  productIds: number[] | null;
  note?: string | undefined;
  active?: boolean | undefined;
};

type Usage = Awaited<ReturnType<typeof repository.usageByCode>>[number];

/** «agotado» counts payments under way too: that is when a buyer is refused. */
export function discountCodeState(
  row: repository.DiscountCodeRow,
  usage: Pick<Usage, 'paidSales' | 'reserved'> | undefined,
  today: string,
): DiscountCodeState {
  if (!row.active) return 'desactivado';
  if (today > row.validTo) return 'vencido';
  if (today < row.validFrom) return 'programado';
  const taken = (usage?.paidSales ?? 0) + (usage?.reserved ?? 0);
  if (row.maxUses !== null && taken >= row.maxUses) return 'agotado';
  return 'activo';
}

const decimalOf = (value: string) => value.trim().replace(',', '.');
/** '12,5' → 1250 (basis points); '10.5' USD → 1050 cents: exact, from the text, never through a float. */
export function hundredths(value: string): number {
  const [whole = '0', fraction = ''] = decimalOf(value).split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}
const percentText = (bp: number) => String(bp / 100);

function view(row: repository.DiscountCodeRow) {
  return {
    code: row.code,
    kind: row.kind,
    percent: row.kind === 'percent' ? percentText(row.percentBp) : null,
    amountUsd: row.kind === 'amount' ? centsToDecimal(row.amountUsdCents ?? 0) : null,
    label:
      row.kind === 'percent'
        ? `${percentText(row.percentBp).replace('.', ',')} %`
        : formatUsd((row.amountUsdCents ?? 0) / 100),
    validFrom: row.validFrom,
    validTo: row.validTo,
    maxUses: row.maxUses,
    maxUsesPerBuyer: row.maxUsesPerBuyer,
    productIds: row.productIds,
    active: row.active,
    note: row.note,
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
  };
}
export type DiscountCodeView = ReturnType<typeof view>;

/** What the audit keeps of a code: what an operator can change, and its version. */
const audited = (row: repository.DiscountCodeRow) => {
  const { updatedAt: _updated, ...kept } = view(row);
  return kept;
};

export async function listDiscountCodes(db: Database, companyId: number, now: Date) {
  const [rows, usage, productIds] = await Promise.all([
    repository.listCodes(db, companyId),
    repository.usageByCode(db, companyId),
    listProductIdsOfCompany(db, companyId),
  ]);
  const products = await listProductsByIds(db, productIds);
  const today = todayInChile(now);
  return {
    today,
    plans: products
      .sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id)
      .map((product) => ({ id: product.id, label: product.label })),
    codes: rows.map((row) => {
      const used = usage.find((u) => u.code === row.code);
      const figures = {
        paidSales: used?.paidSales ?? 0,
        reserved: used?.reserved ?? 0,
        discountUsdCents: used?.discountUsdCents ?? 0,
        discountClp: used?.discountClp ?? 0,
        revenueUsdCents: used?.revenueUsdCents ?? 0,
        revenueClp: used?.revenueClp ?? 0,
      };
      return {
        ...view(row),
        state: discountCodeState(row, used, today),
        usage: {
          ...figures,
          formatted: {
            discountUsd: formatUsd(figures.discountUsdCents / 100),
            discountClp: formatClp(figures.discountClp),
            revenueUsd: formatUsd(figures.revenueUsdCents / 100),
            revenueClp: formatClp(figures.revenueClp),
          },
        },
      };
    }),
  };
}

const fieldError = (field: string, message: string, code: FieldError['code'] = 'invalid'): FieldError => ({
  field,
  code,
  message,
});

/** The checks that span fields (the route's schema checked each one); answers the columns to write. */
async function checkedValues(db: Database, companyId: number, input: DiscountCodeInput) {
  const errors: FieldError[] = [];
  let percentBp = 0;
  let amountUsdCents: number | null = null;
  if (input.kind === 'percent') {
    if (!input.percent) errors.push(fieldError('percent', 'Indica el porcentaje de descuento.', 'required'));
    else {
      percentBp = hundredths(input.percent);
      if (percentBp < 1 || percentBp > 10_000)
        errors.push(fieldError('percent', 'El porcentaje debe estar entre 0,01 y 100.', 'out_of_range'));
    }
  } else if (!input.amountUsd) {
    errors.push(fieldError('amountUsd', 'Indica el monto del descuento en dólares.', 'required'));
  } else {
    amountUsdCents = hundredths(input.amountUsd);
    if (amountUsdCents < 1) errors.push(fieldError('amountUsd', 'El monto debe ser mayor que cero.', 'out_of_range'));
  }
  if (input.validTo < input.validFrom)
    errors.push(fieldError('validTo', 'La fecha de término no puede ser anterior a la de inicio.'));
  if (input.maxUses !== null && input.maxUsesPerBuyer !== null && input.maxUsesPerBuyer > input.maxUses)
    errors.push(
      fieldError('maxUsesPerBuyer', 'El límite por comprador no puede ser mayor que el límite total.', 'out_of_range'),
    );
  if (input.productIds !== null) {
    const own = new Set(await listProductIdsOfCompany(db, companyId));
    if (input.productIds.some((id) => !own.has(id)))
      errors.push(fieldError('productIds', 'Elige planes de la compañía.', 'not_available'));
  }
  if (errors.length > 0) throw new ApiError(400, discountConsoleMessages.invalid, errors);
  return {
    kind: input.kind,
    percentBp,
    amountUsdCents,
    validFrom: input.validFrom,
    validTo: input.validTo,
    maxUses: input.maxUses,
    maxUsesPerBuyer: input.maxUsesPerBuyer,
    productIds: input.productIds === null ? null : [...new Set(input.productIds)].sort((a, b) => a - b),
    note: input.note ?? '',
  };
}

export async function createDiscountCode(
  db: Database,
  companyId: number,
  actor: AuditActor,
  code: string,
  input: DiscountCodeInput,
  at: Date,
) {
  const values = await checkedValues(db, companyId, input);
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const row = await repository.insertCode(tx, { companyId, code, ...values, active: input.active ?? true });
    if (!row) {
      const message = discountConsoleMessages.taken(code);
      throw new ApiError(409, message, [fieldError('code', message, 'duplicate')]);
    }
    await recordAudit(
      tx,
      actor,
      {
        action: 'discount_code.created',
        targetType: 'discount_code',
        targetId: code,
        before: null,
        after: audited(row),
      },
      at,
    );
    return view(row);
  });
}

const fieldLabels: Record<string, string> = {
  kind: 'Tipo',
  percent: 'Porcentaje',
  amountUsd: 'Monto (USD)',
  validFrom: 'Desde',
  validTo: 'Hasta',
  maxUses: 'Límite total de usos',
  maxUsesPerBuyer: 'Límite por comprador',
  productIds: 'Planes',
  active: 'Estado',
  note: 'Nota',
};

const shown = (field: string, value: unknown) => {
  if (value === null || value === undefined || value === '') return field === 'productIds' ? 'todos' : 'sin límite';
  if (field === 'active') return value ? 'activo' : 'desactivado';
  if (field === 'kind') return value === 'amount' ? 'monto fijo' : 'porcentaje';
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
};

/**
 * A save from a form showing an older version: refused (409), naming each field whose value now differs from the
 * one sent, with its current value, so the operator sees what the other save changed before deciding again.
 */
function staleError(current: repository.DiscountCodeRow, sent: DiscountCodeView): ApiError {
  const now = view(current) as Record<string, unknown>;
  const errors = Object.keys(fieldLabels)
    .filter(
      (field) =>
        JSON.stringify(now[field] ?? null) !== JSON.stringify((sent as Record<string, unknown>)[field] ?? null),
    )
    .map((field) => fieldError(field, `${fieldLabels[field]}: ahora dice «${shown(field, now[field])}».`, 'stale'));
  const message = discountConsoleMessages.stale(current.version);
  return new ApiError(409, message, errors.length > 0 ? errors : [fieldError('version', message, 'stale')]);
}

type CodeChanges = Partial<Omit<repository.NewDiscountCode, 'companyId' | 'code' | 'version' | 'createdAt'>>;

/**
 * One change of a code in its transaction: the row locked, the version the form showed checked (409 naming what
 * changed), `changes` written (or a refusal from `refuse`), and one audit row with before and after.
 */
async function changeCode(
  db: Database,
  target: { companyId: number; code: string; version: number },
  actor: AuditActor,
  step: {
    action: 'discount_code.updated' | 'discount_code.deactivated';
    changes: (before: repository.DiscountCodeRow) => CodeChanges;
    refuse?: (before: repository.DiscountCodeRow) => ApiError | null;
  },
  at: Date,
) {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const before = await repository.lockCode(tx, target.companyId, target.code);
    if (!before) throw new ApiError(404, discountConsoleMessages.notFound);
    const changes = step.changes(before);
    if (before.version !== target.version) throw staleError(before, view({ ...before, ...changes }));
    const refusal = step.refuse?.(before);
    if (refusal) throw refusal;
    const after = await repository.updateCode(tx, target.companyId, target.code, changes);
    if (!after) throw new ApiError(404, discountConsoleMessages.notFound);
    await recordAudit(
      tx,
      actor,
      {
        action: step.action,
        targetType: 'discount_code',
        targetId: target.code,
        before: audited(before),
        after: audited(after),
      },
      at,
    );
    return view(after);
  });
}

export async function updateDiscountCode(
  db: Database,
  companyId: number,
  actor: AuditActor,
  code: string,
  input: DiscountCodeInput & { version: number },
  at: Date,
) {
  const values = await checkedValues(db, companyId, input);
  return changeCode(
    db,
    { companyId, code, version: input.version },
    actor,
    { action: 'discount_code.updated', changes: (before) => ({ ...values, active: input.active ?? before.active }) },
    at,
  );
}

export function deactivateDiscountCode(
  db: Database,
  companyId: number,
  actor: AuditActor,
  code: string,
  version: number,
  at: Date,
) {
  return changeCode(
    db,
    { companyId, code, version },
    actor,
    {
      action: 'discount_code.deactivated',
      changes: () => ({ active: false }),
      refuse: (before) => {
        if (before.active) return null;
        const message = discountConsoleMessages.alreadyInactive;
        return new ApiError(409, message, [fieldError('active', message, 'invalid_transition')]);
      },
    },
    at,
  );
}
