import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { todayInChile } from '@travesia/domain/dates';
import { DocumentType, documentTypeLabel } from '@travesia/domain/ids';
import { cleanRut, formatRut, isValidRut } from '@travesia/domain/rut';
import { z } from 'zod';
import type { PurchasesConfig } from '#app/config.ts';
import type { Database } from '#app/db/client.ts';
import { ApiError, resourceNotFound } from '#app/errors.ts';
import { emailHtml } from '#app/integrations/mail/email-html.ts';
import { type Mailer, mailFailureFields } from '#app/integrations/mail/mailer.ts';
import { sandboxGatewayId } from '#app/integrations/payments/sandbox.ts';
import { loggableError } from '#app/lib/loggable-error.ts';
import { accessTokenMatches } from '#app/lib/security/access-token.ts';
import { listCountriesOfDestination } from '#app/modules/catalog/service.ts';
import {
  certificateData,
  findCertificateByNumber,
  generalConditionsPath,
  listCertificates,
  paidPurchase,
  renderCertificatePdf,
  saleBuyer,
  travellerCertificateData,
} from '#app/modules/certificates/service.ts';
import { getSeller, requireCompany, requireDocument } from '#app/modules/company/service.ts';
import { enqueue, type JobHandler, type LogFields } from '#app/modules/jobs/service.ts';
import { type LegalPageSlug, legalPageNames } from '#app/modules/legal/schemas.ts';
import { firstLegalVersions } from '#app/modules/legal/service.ts';
import { priceSplitOf } from '#app/modules/payments/add-ons.ts';
import { saleLedger } from '#app/modules/payments/ledger.ts';
import {
  destinationCountryOfSnapshot,
  findPaidAttempt,
  findSale,
  type PurchaseSnapshot,
  paymentTerms,
  wasPaid,
} from '#app/modules/payments/service.ts';
import { planTaxBp } from '#app/modules/plans/service.ts';
import { listSaleDocuments, presentDocument } from '#app/modules/tax-documents/service.ts';
import * as repository from './repository.ts';
import { withdrawalOf } from './withdrawal.ts';

/** The job that finds whom POST /purchases/access names and e-mails them a code; its payload is the question. */
export const purchaseCodeEmailKind = 'purchase-access-code';

export const documentTypes = ['rut', 'dni', 'passport'] as const;
export type AccessDocumentType = (typeof documentTypes)[number];

/** What the buyer types to ask for a code: the sale or certificate number and the holder's document. */
export type AccessRequest = { number: string; documentType: AccessDocumentType; document: string };

/** The one answer to a code or link that does not open a purchase, whatever the reason (nothing tells which). */
/** The least time a refused code takes to answer, whatever was refused (far above the work's spread). */
export const codeRefusalFloorMs = 150;

export const invalidCodeMessage = 'El código no es válido o ya venció. Pide uno nuevo.';
export const invalidLinkMessage = 'El enlace no es válido o ya venció. Pide un código con tu número de compra.';
export const invalidRutMessage = 'El RUT no es válido.';

// ─── Who opens «Mi compra»: the buyer or one traveller ────────────────────────────────────────────────────────────

/**
 * What an access opens (docs/my-purchase.md): the buyer (the sale's e-mail and the payer's document) sees and
 * manages the whole purchase; a traveller sees only her own trip and certificate. Stored with every code and access
 * token as `buyer` or `traveller:{seq}`, and checked on the server by every endpoint.
 */
export type PurchaseAccess =
  | { saleId: number; role: 'buyer' }
  | { saleId: number; role: 'traveller'; travellerSeq: number };

const holderKey = (access: PurchaseAccess) => (access.role === 'buyer' ? 'buyer' : `traveller:${access.travellerSeq}`);

function accessOfHolder(saleId: number, holder: string): PurchaseAccess | undefined {
  if (holder === 'buyer') return { saleId, role: 'buyer' };
  const seq = /^traveller:(\d{1,4})$/.exec(holder)?.[1];
  return seq ? { saleId, role: 'traveller', travellerSeq: Number(seq) } : undefined;
}

/** What only the buyer may do: a traveller's access is refused with a 403 (§8 body). */
export const buyerOnlyMessage =
  'Solo quien hizo la compra puede ver los pagos y el comprobante, retractarse o cambiar las fechas. Tú puedes ver tu viaje y tu certificado.';

export function requireBuyer(access: PurchaseAccess): number {
  if (access.role !== 'buyer') throw new ApiError(403, buyerOnlyMessage);
  return access.saleId;
}

/**
 * A typed document as the code job compares it: an HMAC keyed by the server's secret of its kind (a RUT, or a DNI or
 * passport, which compare alike) and its cleaned characters, so the job's payload never holds the document itself.
 */
const documentDigest = (secret: string, rut: boolean, document: string) =>
  createHmac('sha256', secret)
    .update(`purchase-document:${rut ? 'rut' : 'id'}:${cleanRut(document)}`)
    .digest('base64url');

/** What a visitor asked with: the number as typed, and their document's digest. */
type HolderQuestion = { companyId: number; number: string; rut: boolean; document: string };

function questionOf(settings: PurchasesConfig, companyId: number, request: AccessRequest): HolderQuestion {
  if (request.documentType === 'rut' && !isValidRut(request.document)) {
    throw new ApiError(400, 'Invalid inputs supplied', [
      { field: 'document', code: 'invalid_rut', message: invalidRutMessage },
    ]);
  }
  const rut = request.documentType === 'rut';
  return {
    companyId,
    number: request.number.trim().toUpperCase(),
    rut,
    document: documentDigest(settings.linkSecret, rut, request.document),
  };
}

/**
 * Whom a question names, and where their code goes: with the payer's document, the buyer (to the sale's e-mail);
 * with a traveller's, that traveller (to her own address). A certificate number (TRV-…) names only its holder.
 */
async function findHolder(
  db: Database,
  settings: PurchasesConfig,
  question: HolderQuestion,
): Promise<{ access: PurchaseAccess; email: string } | undefined> {
  let saleId: number | undefined;
  let certificate: string | undefined;
  if (/^\d{1,10}$/.test(question.number)) {
    const id = Number(question.number);
    if (id <= 2_147_483_647) saleId = id;
  } else {
    const found = await findCertificateByNumber(db, question.number);
    saleId = found?.saleId;
    certificate = found?.number;
  }
  if (saleId === undefined) return undefined;
  const sale = await findSale(db, saleId);
  // A withdrawn sale still opens: its buyer follows the refund there (its certificates, voided, still name the holders).
  if (!sale || !wasPaid(sale.status) || sale.companyId !== question.companyId) return undefined;
  const people = await listCertificates(db, saleId, { includeVoided: true });
  const buyer = await saleBuyer(db, saleId, people);
  const given = (person: { documentType: number; documentNumber: string }) =>
    accessTokenMatches(
      documentDigest(settings.linkSecret, person.documentType === DocumentType.rut, person.documentNumber),
      question.document,
    );
  const named = certificate ? people.filter((person) => person.number === certificate) : people;
  const holder = named.find(given);
  if (buyer && given(buyer) && (!certificate || holder))
    return { access: { saleId, role: 'buyer' }, email: buyer.email };
  if (!holder) return undefined;
  return { access: { saleId, role: 'traveller', travellerSeq: holder.seq }, email: holder.email.toLowerCase() };
}

/**
 * POST /purchases/access: the same work whatever was asked (issue 22: the time to answer said whether a sale
 * existed): the RUT's check digit, then one job queued with the number and the document's digest, at most one a
 * minute for the same question. The job finds the holder, if any, and e-mails the code (purchaseCodeEmailJob).
 */
export async function requestAccessCode(
  db: Database,
  settings: PurchasesConfig,
  companyId: number,
  request: AccessRequest,
): Promise<boolean> {
  const question = questionOf(settings, companyId, request);
  const minute = Math.floor(Date.now() / 60_000);
  return enqueue(
    db,
    purchaseCodeEmailKind,
    question,
    `purchase-code:${sha256(`${question.number}:${question.document}`)}:${minute}`,
  );
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const codeHash = (secret: string, access: PurchaseAccess, code: string) =>
  createHmac('sha256', secret)
    .update(`purchase-code:${access.saleId}:${holderKey(access)}:${code}`)
    .digest('base64url');

/** A new access token of the sale for this role: random, stored as its hash, for `sessionTtlMs`. */
async function openSession(db: Database, settings: PurchasesConfig, access: PurchaseAccess) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + settings.sessionTtlMs);
  await repository.insertToken(db, access.saleId, holderKey(access), sha256(token), expiresAt);
  return { token, expiresAt: expiresAt.toISOString() };
}

/**
 * POST /purchases/access/code: the code e-mailed for this number and document opens the purchase once, in the role
 * it was e-mailed for (a code asked with a traveller's document never opens the buyer's view). Past the sale's
 * daily cap of wrong tries no code opens anything, with the same answer.
 */
export async function verifyAccessCode(
  db: Database,
  companyId: number,
  settings: PurchasesConfig,
  request: AccessRequest & { code: string },
) {
  const started = performance.now();
  const found = await findHolder(db, settings, questionOf(settings, companyId, request));
  const opened =
    found !== undefined &&
    (await repository.consumeCode(
      db,
      { saleId: found.access.saleId, holder: holderKey(found.access), day: todayInChile() },
      (stored) => accessTokenMatches(stored, codeHash(settings.linkSecret, found.access, request.code)),
      { maxAttempts: settings.codeMaxAttempts, failedTriesPerDay: settings.failedTriesPerSalePerDay },
    ));
  if (!found || !opened) {
    // An unknown sale is one query, a known one with a wrong code a locked transaction: every refusal waits until
    // the same floor, so its time says nothing of whether the sale or the document exists (issue 22).
    await sleep(Math.max(0, codeRefusalFloorMs - (performance.now() - started)));
    throw new ApiError(400, invalidCodeMessage, [{ field: 'code', code: 'invalid', message: invalidCodeMessage }]);
  }
  return openSession(db, settings, found.access);
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

/** The «Mi compra» address the buyer's purchase e-mails carry (it opens the buyer's view: never in a traveller's). */
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
  return openSession(db, settings, { saleId, role: 'buyer' });
}

/**
 * POST /purchases/access/sale: the browser that paid opens its purchase as the buyer with the proof it already
 * holds, the sale's access token (given only to the browser that started the paying attempt, compared in constant
 * time). Anything else is the same 400.
 */
export async function openPaidSale(
  db: Database,
  companyId: number,
  settings: PurchasesConfig,
  request: { idVenta: number; token: string },
) {
  const sale = await findSale(db, request.idVenta);
  if (
    !sale ||
    !wasPaid(sale.status) ||
    sale.companyId !== companyId ||
    !accessTokenMatches(sale.accessToken, request.token)
  ) {
    throw new ApiError(400, invalidLinkMessage, [{ field: 'token', code: 'invalid', message: invalidLinkMessage }]);
  }
  // After an operator's revocation only an e-mailed code opens the sale again.
  if ((await repository.linkVersion(db, sale.id)) !== 1) {
    throw new ApiError(400, invalidLinkMessage, [{ field: 'token', code: 'invalid', message: invalidLinkMessage }]);
  }
  return openSession(db, settings, { saleId: sale.id, role: 'buyer' });
}

// ─── The open purchase ────────────────────────────────────────────────────────────────────────────────────────────

/**
 * What an access token opens: the sale and the role; anything else is the catalogue's 404 (nothing says whether the
 * sale exists).
 */
export async function requireAccess(db: Database, token: string | undefined): Promise<PurchaseAccess> {
  if (!token || token.length > 100) throw resourceNotFound();
  const row = await repository.accessOfToken(db, sha256(token));
  const access = row ? accessOfHolder(row.saleId, row.holder) : undefined;
  if (!access) throw resourceNotFound();
  return access;
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

/** The legal texts the buyer accepted, each at the version then in force, with a link to that very text. */
function acceptedLegalPagesOf(pages: Record<string, { version: number; publishedAt: string }> | undefined) {
  return Object.entries(pages ?? {})
    .filter(([slug]) => slug in legalPageNames)
    .map(([slug, page]) => ({
      slug,
      title: legalPageNames[slug as LegalPageSlug],
      version: page.version,
      publishedAt: page.publishedAt,
      url: `/${slug}?version=${page.version}`,
    }));
}

/**
 * The versions of the legal texts a sale's consent names. A consent recorded before the texts had versions (issue 25)
 * names none: nothing was published then, so what that buyer accepted is each page's version 1.
 */
async function legalPagesAccepted(db: Database, companyId: number, consents: PurchaseSnapshot['consents']) {
  if (!consents) return undefined;
  return consents.legalPages ?? (await firstLegalVersions(db, companyId));
}

/** What was charged, split into the plan and the add-ons (from the snapshot; an older sale: the plan is the total). */
function priceBreakdownOf(bought: PurchaseSnapshot) {
  const split = priceSplitOf(bought);
  return {
    planClp: split.plan.totalClp,
    planUsd: split.plan.totalUsdCents / 100,
    addOnsClp: split.addOns.totalClp,
    addOnsUsd: split.addOns.totalUsdCents / 100,
    totalClp: split.total.totalClp,
    totalUsd: split.total.totalUsdCents / 100,
  };
}

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
    priceBreakdown: priceBreakdownOf(bought),
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
      addOns: (person.addOns ?? []).map((addOn) => ({
        code: addOn.code,
        name: addOn.name,
        description: addOn.description,
        benefits: addOn.benefits,
        amountClp: addOn.totalClp,
        amountUsd: addOn.totalUsdCents / 100,
        boughtAfterPurchase: addOn.boughtAfterPurchase === true,
      })),
    })),
    seller: { name: seller.name, legalName: seller.legalName, rut: seller.rut, address: seller.address },
    generalConditionsUrl: website?.configuration.certificates?.generalConditionsUrl ?? '/terminos',
    generalConditionsPdfUrl: generalConditionsPath,
    acceptedLegalPages: acceptedLegalPagesOf(await legalPagesAccepted(db, sale.companyId, bought.consents)),
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

/**
 * GET /purchases/mine for a traveller's access: her own trip, her own certificate and where to verify it; no other
 * traveller, no payment, no amount, no receipt (picked field by field from the buyer's view, so nothing added to that
 * view reaches a traveller unless it is named here).
 */
export async function travellerPurchaseView(db: Database, saleId: number, travellerSeq: number, origin: string) {
  const [view, { bought }] = await Promise.all([purchaseView(db, saleId), paidPurchase(db, saleId)]);
  const index = bought.travellers.findIndex((person) => person.seq === travellerSeq);
  const own = view.travellers[index];
  // Her traveller is no longer on the sale: the access opens nothing.
  if (!own) throw resourceNotFound();
  const live = view.status === 'paid' && own.certificate !== null && !own.certificateVoided;
  const certificate =
    live && own.certificate
      ? travellerCertificateData(await certificateData(db, saleId, origin), own.certificate)
      : undefined;
  return {
    role: 'traveller' as const,
    idVenta: view.idVenta,
    status: view.status,
    testPayment: view.testPayment,
    plan: view.plan,
    destination: view.destination,
    destinationCountry: view.destinationCountry,
    modality: view.modality,
    departureDate: view.departureDate,
    returnDate: view.returnDate,
    days: view.days,
    // Her own add-ons, what they cover and not what they cost: the amounts are the buyer's business.
    traveller: {
      ...own,
      addOns: own.addOns.map(({ amountClp: _clp, amountUsd: _usd, ...addOn }) => addOn),
      verificationUrl: certificate?.verification.url ?? null,
    },
    seller: view.seller,
    generalConditionsUrl: view.generalConditionsUrl,
    generalConditionsPdfUrl: view.generalConditionsPdfUrl,
  };
}

/** The purchase receipt PDF: seller, what was bought, total with taxes, date and payment reference. */
export async function receiptPdf(db: Database, saleId: number) {
  const [view, documents, sale] = await Promise.all([
    purchaseView(db, saleId),
    listSaleDocuments(db, saleId),
    findSale(db, saleId),
  ]);
  // The PDF writer (pdf-lib) is loaded with the first receipt, not at start-up.
  const { renderReceiptPdf } = await import('./receipt-pdf.ts');
  const taxDocuments = documents.filter((row) => row.state === 'emitido').map(presentDocument);
  const taxBp = sale ? await planTaxBp(db, sale.productId) : null;
  return renderReceiptPdf({ ...view, taxBp, taxDocuments });
}

/** The sale's whole certificate PDF (every traveller): the download existing clients use (spec §7). */
export async function purchaseCertificatePdf(db: Database, saleId: number, origin: string) {
  return renderCertificatePdf(await certificateData(db, saleId, origin));
}

// ─── The code e-mail ──────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The code e-mail job of POST /purchases/access: finds whom the question names (findHolder); when it names the buyer
 * or a traveller, and the sale's daily cap of codes is not reached, makes a fresh code for that holder (their older
 * ones die) and e-mails it to that holder's address alone. Past the cap nothing is issued and the buyer is told once
 * (accessCapEmailJob). A retried run makes another code; the newest e-mail is the one that works.
 */
export function purchaseCodeEmailJob(
  db: Database,
  mailer: Mailer,
  settings: PurchasesConfig,
): JobHandler<HolderQuestion> {
  return {
    payload: z.object({
      companyId: z.number().int().positive(),
      number: z.string().max(40),
      rut: z.boolean(),
      document: z.string().max(64),
    }),
    logFields: () => ({}),
    errorFields: (error): LogFields => {
      const { code, causeCode } = loggableError(error);
      return { code, causeCode };
    },
    async run(question) {
      const found = await findHolder(db, settings, question);
      if (!found) return { sent: false };
      const { access, email } = found;
      const today = { saleId: access.saleId, holder: holderKey(access), day: todayInChile() };
      if (!(await repository.countIssuedCode(db, today, settings.codesPerSalePerDay))) {
        return { sent: false, saleId: access.saleId, capped: true };
      }
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await repository.replaceCode(
        db,
        access.saleId,
        holderKey(access),
        codeHash(settings.linkSecret, access, code),
        new Date(Date.now() + settings.codeTtlMs),
      );
      const minutes = Math.round(settings.codeTtlMs / 60_000);
      await mailer.send({
        to: [email],
        subject: `Tu código para ver tu compra: ${code}`,
        text: `Hola,\n\nTu código para entrar a «Mi compra» es ${code}.\nVence en ${minutes} minutos y sirve una sola vez.\n\nSi no lo pediste, ignora este mensaje: nadie puede ver tu compra sin él.`,
        html: await emailHtml({
          brand: (await requireCompany(db, question.companyId)).name,
          title: 'Tu código para ver tu compra',
          preview: `Tu código para entrar a «Mi compra» vence en ${minutes} minutos.`,
          blocks: [
            { type: 'text', text: 'Hola,' },
            { type: 'text', text: 'Tu código para entrar a «Mi compra» es:' },
            { type: 'code', code },
            { type: 'text', text: `Vence en ${minutes} minutos y sirve una sola vez.` },
            { type: 'text', text: 'Si no lo pediste, ignora este mensaje: nadie puede ver tu compra sin él.' },
          ],
        }),
        attachments: [],
      });
      return { sent: true, saleId: access.saleId, role: access.role, destination: mailer.destination };
    },
  };
}

export { accessCapEmailKind } from './repository.ts';

/**
 * The buyer's e-mail when a sale hit a daily cap of «Mi compra» codes (codes issued or wrong tries): sent once a day
 * to the sale's e-mail alone. It names no traveller and no document: someone may be guessing.
 */
export function accessCapEmailJob(db: Database, mailer: Mailer): JobHandler<{ saleId: number; day: string }> {
  return {
    payload: z.object({ saleId: z.number().int().positive(), day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
    logFields: ({ saleId }) => ({ saleId }),
    errorFields: mailFailureFields,
    async run({ saleId, day }) {
      const people = await listCertificates(db, saleId, { includeVoided: true });
      const buyer = await saleBuyer(db, saleId, people);
      const sale = await findSale(db, saleId);
      if (!buyer?.email || !sale) return { sent: false };
      const lines = [
        `Hoy se pidieron o probaron demasiados códigos para entrar a «Mi compra» de tu compra N° ${saleId}.`,
        'Por seguridad, hasta mañana no enviaremos nuevos códigos ni aceptaremos los enviados.',
        'Si fuiste tú, puedes entrar con el enlace del correo de tu compra. Si no fuiste tú, nadie puede ver tu compra sin un código: no necesitas hacer nada, pero puedes escribirnos si tienes dudas.',
      ];
      await mailer.send({
        to: [buyer.email],
        subject: `Aviso de seguridad – compra N° ${saleId}`,
        text: `Hola,\n\n${lines.join('\n\n')}`,
        html: await emailHtml({
          brand: (await requireCompany(db, sale.companyId)).name,
          title: `Aviso de seguridad – compra N° ${saleId}`,
          preview: lines[0] ?? '',
          blocks: [{ type: 'text', text: 'Hola,' }, ...lines.map((text) => ({ type: 'text' as const, text }))],
        }),
        attachments: [],
      });
      await repository.markCapNoticeSent(db, saleId, day);
      return { sent: true, destination: mailer.destination };
    },
  };
}
