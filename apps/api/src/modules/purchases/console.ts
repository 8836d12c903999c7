import { addDays, chileDayStart, todayInChile } from '@travesia/domain/dates';
import type { Database } from '#app/db/client.ts';
import { ApiError, resourceNotFound } from '#app/errors.ts';
import { type AuditActor, recordAudit } from '../audit/service.ts';
import {
  certificateEmailKind,
  certificateHistoryOfSale,
  type HolderMatch,
  manualEmailWindowMs,
  maskEmail,
  reissueCorrectedCertificates,
  saleOfCertificate,
  salesOfHolder,
} from '../certificates/service.ts';
import { enqueue, listJobsOfSale } from '../jobs/service.ts';
import { correctTraveller, type TravellerCorrection } from '../passengers/service.ts';
import { saleLedger } from '../payments/ledger.ts';
import {
  correctPurchaseTraveller,
  findSaleForConsole,
  listDateChangesOfSale,
  listPaymentsOfSale,
  lockSaleOfPurchase,
  type SaleSearchFilter,
  type SaleStatus,
  searchSales,
} from '../payments/service.ts';
import { maskDocument, revokePurchaseAccess } from './service.ts';
import { withdraw, withdrawalOf } from './withdrawal.ts';

/** The console's sale search (issue 24, screen 2): what an operator may ask. */
export type SaleQuery = {
  q?: string;
  /** What `q` is; `auto` guesses (an e-mail, a certificate number, a number or document, else a name). */
  by?: 'auto' | 'sale' | 'certificate' | 'document' | 'email' | 'name';
  /** Paid from / to these Chile dates (both included). */
  paidFrom?: string;
  paidTo?: string;
  status?: SaleStatus | 'confirming';
  cursor?: string;
  /** Rows a page (default salePageSize). */
  limit?: number;
};

export const salePageSize = 50;
/** A payment «en confirmación» for longer than this is stuck (the «Hoy» figure counts the same). */
export const confirmingStuckMs = 5 * 60 * 1000;
const maxSaleId = 2_147_483_647;

const cursorOf = (row: { createdAt: Date; id: number }) =>
  Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');

function afterOf(cursor: string | undefined): SaleSearchFilter['after'] {
  if (!cursor) return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  const saleId = Number(id);
  if (Number.isNaN(createdAt.getTime()) || !Number.isSafeInteger(saleId)) {
    throw new ApiError(400, 'La página pedida no es válida: vuelve a buscar.', [
      { field: 'cursor', code: 'invalid', message: 'Cursor inválido' },
    ]);
  }
  return { createdAt, id: saleId };
}

/** What `q` names: a sale number, a certificate number, a holder (document, e-mail, name), or several at once. */
function matchOf(
  q: string,
  by: NonNullable<SaleQuery['by']>,
): Pick<SaleSearchFilter, 'saleId' | 'saleIdsIn'> & {
  holder?: HolderMatch;
  certificate?: string;
} {
  const text = q.trim();
  const asSaleId = /^\d{1,10}$/.test(text) && Number(text) <= maxSaleId ? Number(text) : undefined;
  switch (by) {
    case 'sale':
      if (asSaleId === undefined) throw invalidQuery('Un número de venta tiene solo dígitos.');
      return { saleId: asSaleId };
    case 'certificate':
      return { certificate: text };
    case 'document':
      return { holder: { document: text } };
    case 'email':
      return { holder: { email: text } };
    case 'name':
      if (text.length < 2) throw invalidQuery('Escribe al menos 2 letras del nombre.');
      return { holder: { name: text } };
    default:
      if (text.includes('@')) return { holder: { email: text } };
      if (/^TRV-/i.test(text)) return { certificate: text };
      // Digits: a sale number, or a RUT / DNI / passport written without its check digit's dash: both are looked for.
      if (/\d/.test(text)) return { saleId: asSaleId, holder: { document: text } };
      if (text.length < 2) throw invalidQuery('Escribe al menos 2 letras del nombre.');
      return { holder: { name: text } };
  }
}

const invalidQuery = (message: string) => new ApiError(400, message, [{ field: 'q', code: 'invalid', message }]);

/** One page of the sale list: newest first, each row with who holds it and what it bought. */
export async function searchSalesForConsole(db: Database, companyId: number, query: SaleQuery, now: Date) {
  const filter: SaleSearchFilter = { companyId, after: afterOf(query.cursor) };
  if (query.q?.trim()) {
    const match = matchOf(query.q, query.by ?? 'auto');
    filter.saleId = match.saleId;
    if (match.certificate) filter.saleIdsIn = saleOfCertificate(db, match.certificate);
    if (match.holder) filter.saleIdsIn = salesOfHolder(db, companyId, match.holder);
  }
  if (query.paidFrom) filter.paidFrom = chileDayStart(query.paidFrom);
  if (query.paidTo) filter.paidBefore = chileDayStart(addDays(query.paidTo, 1));
  if (query.status === 'confirming') filter.confirmingSince = new Date(now.getTime() - confirmingStuckMs);
  else if (query.status) filter.status = query.status;
  const size = query.limit ?? salePageSize;
  const rows = await searchSales(db, filter, size + 1);
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    sales: page.map((row) => ({
      id: row.id,
      status: row.status,
      amountClp: row.amountClp,
      testPayment: row.testPayment,
      createdAt: row.createdAt.toISOString(),
      paidAt: row.paidAt?.toISOString() ?? null,
      holder: row.holderFirstName ? `${row.holderFirstName} ${row.holderLastName ?? ''}`.trim() : null,
      travellers: row.travellers ?? 0,
      plan: row.plan,
      departureDate: row.departureDate,
    })),
    nextCursor: rows.length > size && last ? cursorOf(last) : null,
  };
}

/** The sale, when it is this console's company's (the search is scoped the same way); else the §8 404. */
async function requireSale(db: Database, companyId: number, saleId: number) {
  const sale = await findSaleForConsole(db, saleId);
  if (sale?.companyId !== companyId) throw resourceNotFound();
  return sale;
}

/**
 * A sale's page: trip, plan, travellers (documents in full: operators need them), every payment attempt, the money
 * ledger, every certificate and verification code, the e-mails sent, the consents and the date changes.
 */
export async function saleDetail(db: Database, companyId: number, saleId: number, now: Date) {
  const sale = await requireSale(db, companyId, saleId);
  const paid = sale.status !== 'pending';
  const [attempts, ledger, certificates, emails, dateChanges, withdrawal] = await Promise.all([
    listPaymentsOfSale(db, saleId),
    saleLedger(db, saleId),
    certificateHistoryOfSale(db, saleId),
    listJobsOfSale(db, saleId),
    listDateChangesOfSale(db, saleId),
    paid ? withdrawalOf(db, saleId, now) : null,
  ]);
  const bought = sale.purchase;
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: sale.id,
    status: sale.status,
    testPayment: sale.testPayment,
    amountClp: sale.amountClp,
    amountUsd: sale.amountUsdCents / 100,
    createdAt: sale.createdAt.toISOString(),
    paidAt: iso(sale.paidAt),
    plan: bought?.plan.label ?? null,
    trip: bought
      ? {
          destination: bought.trip.destination,
          destinationCountry: bought.trip.destinationCountry?.label ?? null,
          modality: bought.trip.modality,
          departureDate: bought.trip.departureDate,
          returnDate: bought.trip.returnDate,
          days: bought.trip.days,
          discountCode: bought.trip.discountCode,
        }
      : null,
    travellers: (bought?.travellers ?? []).map((person) => ({
      seq: person.seq,
      name: `${person.firstName} ${person.lastName}`,
      firstName: person.firstName,
      lastName: person.lastName,
      documentType: person.documentType,
      documentNumber: person.documentNumber,
      birthDate: person.birthDate,
      email: person.email,
    })),
    consents: bought?.consents ?? null,
    payments: attempts.map((payment) => ({
      id: payment.id,
      purpose: payment.purpose,
      gateway: payment.gateway,
      status: payment.status,
      amountClp: payment.amountClp,
      instalments: payment.instalments,
      cardLastDigits: payment.cardLastDigits,
      authorizationCode: payment.authorizationCode,
      createdAt: payment.createdAt.toISOString(),
      confirmedAt: iso(payment.confirmedAt),
    })),
    ledger,
    certificates: certificates.issued.map((certificate) => ({
      number: certificate.number,
      travellerSeq: certificate.seq,
      issuedAt: certificate.issuedAt.toISOString(),
      voidedAt: iso(certificate.voidedAt),
      voidedReason: certificate.voidedReason,
    })),
    verificationCodes: certificates.codes.map((code) => ({
      version: code.version,
      code: code.code,
      createdAt: code.createdAt.toISOString(),
      replacedAt: iso(code.replacedAt),
    })),
    emails: emails.map((job) => ({
      id: job.id,
      kind: job.kind,
      status: job.status,
      attempts: job.attempts,
      lastError: job.lastError,
      createdAt: job.createdAt.toISOString(),
      updatedAt: job.updatedAt.toISOString(),
    })),
    dateChanges: dateChanges.map((change) => ({
      id: change.id,
      kind: change.kind,
      status: change.status,
      previousDepartureDate: change.previousDepartureDate,
      previousReturnDate: change.previousReturnDate,
      departureDate: change.departureDate,
      returnDate: change.returnDate,
      differenceClp: change.differenceClp,
      createdAt: change.createdAt.toISOString(),
      appliedAt: iso(change.appliedAt),
    })),
    withdrawal: withdrawal
      ? {
          status: withdrawal.status,
          available: withdrawal.available,
          reason: withdrawal.reason,
          deadline: withdrawal.deadline,
        }
      : null,
  };
}

export type SaleDetail = Awaited<ReturnType<typeof saleDetail>>;

const notPaidMessage = 'Esta venta no está pagada: no tiene certificados que reenviar ni acceso que revocar.';
const requirePaid = (status: SaleStatus) => {
  if (status !== 'paid') {
    throw new ApiError(409, notPaidMessage, [{ field: 'idVenta', code: 'not_changeable', message: notPaidMessage }]);
  }
};

/** «Reenviar certificados»: the certificate e-mail (with the receipt's link) again, to the sale's own travellers. */
export async function resendCertificates(
  db: Database,
  companyId: number,
  actor: AuditActor,
  saleId: number,
  now: Date,
) {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const sale = await requireSale(tx, companyId, saleId);
    requirePaid(sale.status);
    // The console's sends share one key per sale and the manual sends' window: a double click queues one e-mail.
    const queued = await enqueue(
      tx,
      certificateEmailKind,
      { saleId },
      `certificate:console:${saleId}:${Math.floor(now.getTime() / manualEmailWindowMs)}`,
    );
    if (queued) {
      await recordAudit(
        tx,
        actor,
        { action: 'sale.certificates_resent', targetType: 'sale', targetId: String(saleId), after: { queued } },
        now,
      );
    }
    return { queued };
  });
}

/** «Revocar acceso a Mi compra»: every link, code and open access of the sale stops working at once. */
export async function revokeSaleAccess(db: Database, companyId: number, actor: AuditActor, saleId: number, now: Date) {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const sale = await requireSale(tx, companyId, saleId);
    requirePaid(sale.status);
    const { linkVersion } = await revokePurchaseAccess(tx, saleId);
    await recordAudit(
      tx,
      actor,
      {
        action: 'sale.access_revoked',
        targetType: 'sale',
        targetId: String(saleId),
        before: { linkVersion: linkVersion - 1 },
        after: { linkVersion },
      },
      now,
    );
    return { linkVersion };
  });
}

/**
 * «Retractar por el comprador» (a phone request): the buyer's own withdrawal, the same window, refund and e-mail,
 * with the operator in the audit trail. Answers the state and whether this call withdrew.
 */
export async function withdrawForBuyer(db: Database, companyId: number, actor: AuditActor, saleId: number, now: Date) {
  const sale = await requireSale(db, companyId, saleId);
  if (sale.status === 'pending') throw resourceNotFound();
  return withdraw(db, saleId, now, (tx) =>
    recordAudit(
      tx,
      actor,
      {
        action: 'sale.withdrawn_for_buyer',
        targetType: 'sale',
        targetId: String(saleId),
        before: { status: 'paid' },
        after: { status: 'withdrawing' },
      },
      now,
    ),
  );
}

const noSuchTraveller = () => {
  const message = 'Esta venta no tiene ese viajero.';
  return new ApiError(404, message, [{ field: 'seq', code: 'invalid', message }]);
};

/**
 * «Corregir viajero»: a typo in a traveller's name or document of a paid sale. Under the purchase and sale locks, in
 * one transaction: the traveller and the sale's snapshot corrected, the certificates voided and issued again with a
 * new verification code (the old one answers «reemplazado»), the e-mail queued, one audit row with before and after.
 */
export async function correctSaleTraveller(
  db: Database,
  companyId: number,
  actor: AuditActor,
  saleId: number,
  seq: number,
  input: TravellerCorrection & { reason: string },
  now: Date,
) {
  const { reason, ...correction } = input;
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const sale = await lockSaleOfPurchase(tx, saleId);
    if (sale?.companyId !== companyId) throw resourceNotFound();
    requirePaid(sale.status);
    const before = await correctTraveller(tx, sale.quotationId, seq, correction);
    if (!before || !(await correctPurchaseTraveller(tx, saleId, seq, correction))) throw noSuchTraveller();
    const trip = sale.purchase?.trip ?? { departureDate: '', returnDate: '' };
    const version = await reissueCorrectedCertificates(tx, sale, trip, Number(todayInChile(now).slice(0, 4)));
    await recordAudit(
      tx,
      actor,
      {
        action: 'sale.traveller_corrected',
        targetType: 'sale',
        targetId: String(saleId),
        before: {
          seq,
          firstName: before.firstName,
          lastName: before.lastName,
          documentType: before.documentType,
          documentNumber: before.documentNumber,
        },
        after: { seq, ...correction, reason, certificatesVersion: version },
      },
      now,
    );
    return { certificatesVersion: version };
  });
}

/**
 * A sale's page for a caller who only reconciles money (finance without support or admin): the travellers' documents
 * and e-mails masked and no birth dates. Support, who acts for the buyer, sees them whole.
 */
export function maskedForFinance(sale: SaleDetail): SaleDetail {
  return {
    ...sale,
    travellers: sale.travellers.map((person) => ({
      ...person,
      documentNumber: maskDocument(person.documentType, person.documentNumber),
      email: maskEmail(person.email),
      birthDate: '',
    })),
  };
}
