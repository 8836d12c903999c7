import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { todayInChile } from '@travesia/domain/dates';
import { DocumentType, documentTypeLabel } from '@travesia/domain/ids';
import { cleanRut, formatRut, isValidRut } from '@travesia/domain/rut';
import { z } from 'zod';
import type { PurchasesConfig } from '#app/config.ts';
import type { Database } from '#app/db/client.ts';
import { ApiError, resourceNotFound } from '#app/errors.ts';
import type { Mailer } from '#app/integrations/mail/mailer.ts';
import { sandboxGatewayId } from '#app/integrations/payments/sandbox.ts';
import { accessTokenMatches } from '#app/lib/access-token.ts';
import { loggableError } from '#app/lib/loggable-error.ts';
import { listCountriesOfDestination } from '#app/modules/catalog/service.ts';
import {
  certificateData,
  findCertificateByNumber,
  generalConditionsPath,
  listCertificates,
  paidPurchase,
  renderCertificatePdf,
} from '#app/modules/certificates/service.ts';
import { getSeller, requireDocument } from '#app/modules/company/service.ts';
import { enqueue, type JobHandler, type LogFields } from '#app/modules/jobs/service.ts';
import { saleLedger } from '#app/modules/payments/ledger.ts';
import {
  destinationCountryOfSnapshot,
  findPaidAttempt,
  findSale,
  paymentTerms,
  wasPaid,
} from '#app/modules/payments/service.ts';
import * as repository from './repository.ts';
import { withdrawalOf } from './withdrawal.ts';

/** The job that e-mails a one-time code of «Mi compra»; its payload is `{ saleId, travellerSeq }`. */
export const purchaseCodeEmailKind = 'purchase-access-code';

export const documentTypes = ['rut', 'dni', 'passport'] as const;
export type AccessDocumentType = (typeof documentTypes)[number];

/** What the buyer types to ask for a code: the sale or certificate number and the holder's document. */
export type AccessRequest = { number: string; documentType: AccessDocumentType; document: string };

/** The one answer to a code or link that does not open a purchase, whatever the reason (nothing tells which). */
export const invalidCodeMessage = 'El código no es válido o ya venció. Pide uno nuevo.';
export const invalidLinkMessage = 'El enlace no es válido o ya venció. Pide un código con tu número de compra.';
export const invalidRutMessage = 'El RUT no es válido.';

/** The sale a number names (a sale number is digits; a certificate number is TRV-…), and the holders it accepts. */
async function holdersOf(db: Database, companyId: number, number: string) {
  const trimmed = number.trim().toUpperCase();
  let saleId: number | undefined;
  let certificate: string | undefined;
  if (/^\d{1,10}$/.test(trimmed)) {
    const id = Number(trimmed);
    if (id <= 2_147_483_647) saleId = id;
  } else {
    const found = await findCertificateByNumber(db, trimmed);
    saleId = found?.saleId;
    certificate = found?.number;
  }
  if (saleId === undefined) return undefined;
  const sale = await findSale(db, saleId);
  // A withdrawn sale still opens: its buyer follows the refund there (its certificates, voided, still name the holders).
  if (!sale || !wasPaid(sale.status) || sale.companyId !== companyId) return undefined;
  const people = await listCertificates(db, saleId, { includeVoided: true });
  return { saleId, people: certificate ? people.filter((person) => person.number === certificate) : people };
}

/** The traveller of the sale named by `request` whose document it gives (a RUT in any of its forms), or undefined. */
async function matchHolder(db: Database, companyId: number, request: AccessRequest) {
  if (request.documentType === 'rut' && !isValidRut(request.document)) {
    throw new ApiError(400, 'Invalid inputs supplied', [
      { field: 'document', code: 'invalid_rut', message: invalidRutMessage },
    ]);
  }
  const found = await holdersOf(db, companyId, request.number);
  if (!found) return undefined;
  const wanted = cleanRut(request.document);
  const wantsRut = request.documentType === 'rut';
  const holder = found.people.find(
    (person) => (person.documentType === DocumentType.rut) === wantsRut && cleanRut(person.documentNumber) === wanted,
  );
  return holder ? { saleId: found.saleId, seq: holder.seq } : undefined;
}

/**
 * POST /purchases/access: when the number and document match a paid sale's traveller, a code is e-mailed to that
 * traveller's address (through the job queue, at most one a minute per traveller). The answer never says whether
 * anything matched.
 */
export async function requestAccessCode(db: Database, companyId: number, request: AccessRequest): Promise<boolean> {
  const holder = await matchHolder(db, companyId, request);
  if (!holder) return false;
  const minute = Math.floor(Date.now() / 60_000);
  return enqueue(
    db,
    purchaseCodeEmailKind,
    { saleId: holder.saleId, travellerSeq: holder.seq },
    `purchase-code:${holder.saleId}:${holder.seq}:${minute}`,
  );
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const codeHash = (secret: string, saleId: number, code: string) =>
  createHmac('sha256', secret).update(`purchase-code:${saleId}:${code}`).digest('base64url');

/** A new access token of the sale: random, stored as its hash, for `sessionTtlMs`. */
async function openSession(db: Database, settings: PurchasesConfig, saleId: number) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + settings.sessionTtlMs);
  await repository.insertToken(db, saleId, sha256(token), expiresAt);
  return { token, expiresAt: expiresAt.toISOString() };
}

/** POST /purchases/access/code: the code e-mailed for this number and document opens the purchase, once. */
export async function verifyAccessCode(
  db: Database,
  companyId: number,
  settings: PurchasesConfig,
  request: AccessRequest & { code: string },
) {
  const holder = await matchHolder(db, companyId, request);
  const opened =
    holder !== undefined &&
    (await repository.consumeCode(
      db,
      holder.saleId,
      (stored) => accessTokenMatches(stored, codeHash(settings.linkSecret, holder.saleId, request.code)),
      settings.codeMaxAttempts,
    ));
  if (!holder || !opened) {
    throw new ApiError(400, invalidCodeMessage, [{ field: 'code', code: 'invalid', message: invalidCodeMessage }]);
  }
  return openSession(db, settings, holder.saleId);
}

// ─── Signed links ─────────────────────────────────────────────────────────────────────────────────────────────────

const linkSignature = (secret: string, saleId: number, version: number, expires: number) =>
  createHmac('sha256', secret).update(`purchase-link:${saleId}:${version}:${expires}`).digest('base64url');

/** `{sale}.{version}.{expiry, s}.{HMAC-SHA256}`: opens one sale until it expires or its version is raised. */
export async function signedLinkToken(db: Database, settings: PurchasesConfig, saleId: number, now = Date.now()) {
  const version = await repository.linkVersion(db, saleId);
  const expires = Math.floor((now + settings.linkTtlMs) / 1000);
  return `${saleId}.${version}.${expires}.${linkSignature(settings.linkSecret, saleId, version, expires)}`;
}

/** The «Mi compra» address a purchase e-mail carries. */
export async function purchaseLink(db: Database, settings: PurchasesConfig, origin: string, saleId: number) {
  return `${origin}/mi-compra?enlace=${await signedLinkToken(db, settings, saleId)}`;
}

/** POST /purchases/access/link: a signed link that is intact, unexpired and of the sale's current version. */
export async function openSignedLink(db: Database, companyId: number, settings: PurchasesConfig, link: string) {
  const invalid = () =>
    new ApiError(400, invalidLinkMessage, [{ field: 'link', code: 'invalid', message: invalidLinkMessage }]);
  const match = /^(\d{1,10})\.(\d{1,9})\.(\d{10,12})\.([A-Za-z0-9_-]{43})$/.exec(link.trim());
  if (!match) throw invalid();
  const [saleId, version, expires] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const signature = linkSignature(settings.linkSecret, saleId, version, expires);
  if (!accessTokenMatches(signature, match[4]) || expires * 1000 < Date.now()) throw invalid();
  const sale = saleId <= 2_147_483_647 ? await findSale(db, saleId) : undefined;
  if (!sale || !wasPaid(sale.status) || sale.companyId !== companyId) throw invalid();
  if ((await repository.linkVersion(db, saleId)) !== version) throw invalid();
  return openSession(db, settings, saleId);
}

// ─── The open purchase ────────────────────────────────────────────────────────────────────────────────────────────

/** The sale an access token opens; anything else is the catalogue's 404 (nothing says whether the sale exists). */
export async function requireAccess(db: Database, token: string | undefined): Promise<number> {
  if (!token || token.length > 100) throw resourceNotFound();
  const saleId = await repository.saleOfToken(db, sha256(token));
  if (saleId === undefined) throw resourceNotFound();
  return saleId;
}

/** «Salir»: this access token no longer opens anything. */
export async function closeAccess(db: Database, token: string | undefined) {
  if (token) await repository.revokeToken(db, sha256(token));
}

/** The operator's revocation: every link, code and open access of the sale dies at once. */
export async function revokePurchaseAccess(db: Database, saleId: number) {
  const sale = await findSale(db, saleId);
  if (!wasPaid(sale?.status)) throw resourceNotFound();
  return { linkVersion: await repository.revokeSale(db, saleId) };
}

/** «12.345.678-5» → «12.***.***-5»; a DNI or passport keeps its first two and last two characters. */
export function maskDocument(documentType: number, number: string): string {
  if (documentType === DocumentType.rut && isValidRut(number)) {
    return formatRut(number, 'both').replace(/^(\d{1,2})\.\d{3}\.\d{3}-/, '$1.***.***-');
  }
  const clean = number.replace(/\s+/g, '');
  if (clean.length <= 4) return '*'.repeat(clean.length);
  return `${clean.slice(0, 2)}${'*'.repeat(clean.length - 4)}${clean.slice(-2)}`;
}

const gatewayNames: Record<string, string> = { webpay: 'Webpay Plus', [sandboxGatewayId]: 'Pasarela de prueba' };

/** GET /purchases/mine: what was bought, how it was paid, and the documents of it. */
export async function purchaseView(db: Database, saleId: number) {
  const { sale, bought } = await paidPurchase(db, saleId);
  const [attempt, certificates, seller, website, withdrawal] = await Promise.all([
    findPaidAttempt(db, saleId),
    listCertificates(db, saleId, { includeVoided: true }),
    getSeller(db, sale.companyId),
    requireDocument(db, sale.companyId, 'website').catch(() => null),
    withdrawalOf(db, saleId),
  ]);
  const changeable = withdrawal.status === 'paid' && todayInChile() < bought.trip.departureDate;
  const [country, countries] = await Promise.all([
    destinationCountryOfSnapshot(db, sale.quotationId, bought),
    // The countries of the sale's region the date change may move it to (those of the destinations/…/countries list);
    // a region since taken out of the catalogue offers none (the change then keeps the country).
    changeable
      ? listCountriesOfDestination(db, sale.companyId, bought.trip.destinationId).catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return [];
          throw error;
        })
      : [],
  ]);
  // As the success page says it: of the purchase's own payment (after a date change the total differs from what
  // that payment split).
  const terms = paymentTerms({
    amountClp: attempt?.amountClp ?? bought.price.totalClp,
    instalments: attempt?.instalments ?? null,
    paymentTypeCode: attempt?.paymentTypeCode ?? null,
  });
  return {
    idVenta: sale.id,
    status: withdrawal.status,
    testPayment: sale.testPayment,
    paidAt: (sale.paidAt ?? sale.createdAt).toISOString(),
    plan: bought.plan.label,
    destination: bought.trip.destination,
    destinationCountry: country,
    modality: bought.trip.modality,
    departureDate: bought.trip.departureDate,
    returnDate: bought.trip.returnDate,
    days: bought.trip.days,
    amountClp: bought.price.totalClp,
    amountUsd: bought.price.totalUsdCents / 100,
    payment: {
      gateway: attempt ? (gatewayNames[attempt.gateway] ?? attempt.gateway) : null,
      paymentType: terms.paymentType,
      cardLastDigits: attempt?.cardLastDigits ?? null,
      instalments: terms.instalments,
      instalmentAmountClp: terms.instalmentAmountClp,
      authorizationCode: attempt?.authorizationCode ?? null,
    },
    // Every payment and refund, with the net: what «Tu pago», the receipt and the e-mails print.
    ledger: await saleLedger(db, saleId),
    travellers: bought.travellers.map((person) => ({
      name: `${person.firstName} ${person.lastName}`,
      documentType: documentTypeLabel(person.documentType),
      document: maskDocument(person.documentType, person.documentNumber),
      certificate: certificates.find((c) => c.seq === person.seq)?.number ?? null,
      certificateVoided: certificates.some((c) => c.seq === person.seq && c.voidedAt !== null),
    })),
    seller: { name: seller.name, legalName: seller.legalName, rut: seller.rut, address: seller.address },
    generalConditionsUrl: website?.configuration.certificates?.generalConditionsUrl ?? '/terminos',
    generalConditionsPdfUrl: generalConditionsPath,
    withdrawal,
    dateChange:
      withdrawal.status !== 'paid'
        ? {
            available: false,
            reason: 'Te retractaste de esta compra: ya no se pueden cambiar sus fechas.',
            countries: [],
          }
        : changeable
          ? { available: true, reason: null, countries }
          : {
              available: false,
              reason: 'Tu viaje ya comenzó: las fechas solo se pueden cambiar antes de la salida.',
              countries: [],
            },
  };
}

export type PurchaseView = Awaited<ReturnType<typeof purchaseView>>;

/** The purchase receipt PDF: seller, what was bought, total with taxes, date and payment reference. */
export async function receiptPdf(db: Database, saleId: number) {
  const view = await purchaseView(db, saleId);
  // The PDF writer (pdf-lib) is loaded with the first receipt, not at start-up.
  const { renderReceiptPdf } = await import('./receipt-pdf.ts');
  return renderReceiptPdf(view);
}

/** The sale's whole certificate PDF (every traveller): the download existing clients use (spec §7). */
export async function purchaseCertificatePdf(db: Database, saleId: number, origin: string) {
  return renderCertificatePdf(await certificateData(db, saleId, origin));
}

// ─── The code e-mail ──────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The code e-mail job: makes a fresh code (older ones of the sale die) and sends it to the address of the traveller
 * whose document was given. A retried run makes another code; the newest e-mail is the one that works.
 */
export function purchaseCodeEmailJob(
  db: Database,
  mailer: Mailer,
  settings: PurchasesConfig,
): JobHandler<{ saleId: number; travellerSeq: number }> {
  return {
    payload: z.object({ saleId: z.number().int().positive(), travellerSeq: z.number().int().positive() }),
    logFields: ({ saleId }) => ({ saleId }),
    errorFields: (error): LogFields => {
      const { code, causeCode } = loggableError(error);
      return { code, causeCode };
    },
    async run({ saleId, travellerSeq }) {
      const people = await listCertificates(db, saleId, { includeVoided: true });
      const holder = people.find((person) => person.seq === travellerSeq);
      if (!holder) return { sent: false };
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await repository.replaceCode(
        db,
        saleId,
        codeHash(settings.linkSecret, saleId, code),
        new Date(Date.now() + settings.codeTtlMs),
      );
      const minutes = Math.round(settings.codeTtlMs / 60_000);
      await mailer.send({
        to: [holder.email],
        subject: `Tu código para ver tu compra: ${code}`,
        text: `Hola,\n\nTu código para entrar a «Mi compra» es ${code}.\nVence en ${minutes} minutos y sirve una sola vez.\n\nSi no lo pediste, ignora este mensaje: nadie puede ver tu compra sin él.`,
        html: `<p>Hola,</p><p>Tu código para entrar a «Mi compra» es <strong style="font-size:20px;letter-spacing:3px">${code}</strong>.</p><p>Vence en ${minutes} minutos y sirve una sola vez.</p><p>Si no lo pediste, ignora este mensaje: nadie puede ver tu compra sin él.</p>`,
        attachments: [],
      });
      return { sent: true, destination: mailer.destination };
    },
  };
}
