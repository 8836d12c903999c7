import { createHmac } from 'node:crypto';
import { buyerOf } from '@travesia/domain/buyer';
import { withdrawalNotice } from '@travesia/domain/consents';
import { todayInChile, tripDays } from '@travesia/domain/dates';
import { documentTypeLabel } from '@travesia/domain/ids';
import { errorMessages } from '@travesia/domain/messages';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError, resourceNotFound } from '#app/errors.ts';
import { type EmailBlock, emailHtml } from '#app/integrations/mail/email-html.ts';
import { type Mailer, mailFailureFields } from '#app/integrations/mail/mailer.ts';
import { accessTokenMatches } from '#app/lib/security/access-token.ts';
import * as catalog from '#app/modules/catalog/service.ts';
import { requireCompany, requireDocument } from '#app/modules/company/service.ts';
import * as content from '#app/modules/content/service.ts';
import { enqueue, enqueueWithinCap, type JobHandler } from '#app/modules/jobs/service.ts';
import { getPassengers, listTravellersByIds } from '#app/modules/passengers/service.ts';
import { priceBreakdownLines } from '#app/modules/payments/add-ons.ts';
import { ledgerEmailLines, saleLedger } from '#app/modules/payments/ledger.ts';
import {
  destinationCountryOfSnapshot,
  findSale,
  findSaleOfQuotation,
  findSales,
  listDateChanges,
  type PurchaseSnapshot,
  wasPaid,
  wasWithdrawn,
} from '#app/modules/payments/service.ts';
import { planSummary, planTaxBp } from '#app/modules/plans/service.ts';
import { getQuotation } from '#app/modules/quotations/service.ts';
import { activationSteps, type CertificateData } from './pdf.ts';
import * as repository from './repository.ts';

import { testPaymentStamp } from './test-payment.ts';

export const certificateFileName = 'certificado.pdf';
/** The job that e-mails a paid sale's certificates (modules/jobs); its payload is `{ saleId }`. */
export const certificateEmailKind = 'certificate-email';

const documentLabel = (type: number, number: string) => `${documentTypeLabel(type)} ${number}`;

/** One traveller's certificate file: its number names it, so a buyer's e-mail with all of them keeps them apart. */
export const travellerCertificateFileName = (number: string) => `certificado-${number}.pdf`;

/** What a certificate document of a withdrawn sale answers (409): the certificates were voided, none is issued. */
export const withdrawnCertificatesMessage =
  'Esta compra fue anulada por retracto: sus certificados quedaron anulados y ya no se pueden descargar ni enviar.';

/**
 * A paid sale, or the catalogue's 404: certificates exist only for paid sales. A withdrawn one (withdrawing or
 * withdrawn) is a 409 for its certificate documents (voided), unless `withdrawn` allows it (what it was, «Mi compra»).
 */
async function requirePaidSale(db: Database, saleId: number, options: { withdrawn?: 'allow' } = {}) {
  const sale = await findSale(db, saleId);
  if (!sale || !wasPaid(sale.status)) throw resourceNotFound();
  if (sale.status !== 'paid' && options.withdrawn !== 'allow') {
    throw new ApiError(409, withdrawnCertificatesMessage, [
      { field: 'idVenta', code: 'sale_withdrawn', message: withdrawnCertificatesMessage },
    ]);
  }
  return sale;
}

/** The sale's valid certificates (with `includeVoided`, voided ones too), of a paid sale even if since withdrawn. */
export async function listCertificates(db: Database, saleId: number, options: { includeVoided?: boolean } = {}) {
  await requirePaidSale(db, saleId, { withdrawn: 'allow' });
  return repository.listCertificatesOfSale(db, saleId, options);
}

/**
 * What a certificate says: the purchase the sale paid for (the snapshot frozen when its payment started), never the
 * quotation as it may read today. Sales paid before snapshots existed are read from their quotation.
 */
export async function certificateData(db: Database, saleId: number, origin: string): Promise<CertificateData> {
  await requirePaidSale(db, saleId);
  // The code before the trip it is printed with: a date change committed in between gives the new trip with the
  // replaced code (which then answers «reemplazado»), never the old dates with the code of the new trip.
  const code = await repository.currentVerificationCode(db, saleId);
  const sale = await requirePaidSale(db, saleId);
  const [company, people, contacts, website] = await Promise.all([
    requireCompany(db, sale.companyId),
    repository.listCertificatesOfSale(db, saleId),
    content.listContactInfos(db, sale.companyId),
    requireDocument(db, sale.companyId, 'website').catch(() => null),
  ]);
  const bought = sale.purchase ?? (await purchaseFromQuotation(db, sale));
  const numbers = new Map(people.map((person) => [person.seq, person.number]));
  const [schengen, country] = await Promise.all([
    isSchengenTrip(db, sale.quotationId, bought.trip.destinationId),
    destinationCountryOfSnapshot(db, sale.quotationId, bought),
  ]);
  const emergency = contacts.filter((contact) => contact.isEmergency);
  const configured = website?.configuration.assistance;
  return {
    verification: { code, url: verificationUrl(origin, code) },
    schengen: schengen ? { minimumCoverEur: schengenMinimumCoverEur } : null,
    company: { name: company.name, legalName: company.legalName, rut: company.rut, address: company.address },
    saleId,
    issuedAt: sale.paidAt ?? sale.createdAt,
    testPayment: sale.testPayment,
    plan: { label: bought.plan.label, benefits: bought.plan.benefits },
    trip: {
      destination: bought.trip.destination,
      country: country?.label ?? null,
      modality: bought.trip.modality,
      departureDate: bought.trip.departureDate,
      returnDate: bought.trip.returnDate,
      days: bought.trip.days,
    },
    travellers: bought.travellers.map((person) => ({
      number: numbers.get(person.seq) ?? '',
      name: `${person.firstName} ${person.lastName}`,
      document: documentLabel(person.documentType, person.documentNumber),
      birthDate: person.birthDate,
      addOns: (person.addOns ?? []).map((addOn) => ({
        name: addOn.name,
        description: addOn.description,
        benefits: addOn.benefits,
      })),
    })),
    recipients: [...new Set(bought.travellers.map((person) => person.email.toLowerCase()))],
    emergencyPhones: emergency.map((contact) => ({
      label: contact.label,
      phone: contact.phone,
      whatsapp: contact.whatsapp,
    })),
    // The website parameters name them; a company without them falls back to its emergency WhatsApp.
    assistance: {
      abroadPhone: configured?.abroadPhone ?? null,
      whatsapp:
        configured?.whatsapp ??
        emergency.find((contact) => contact.whatsapp)?.whatsapp ??
        (website?.configuration.whatsappNumber || null),
    },
  };
}

/** The certificate of one traveller of the sale: the same document with that traveller alone on it. */
export function travellerCertificateData(data: CertificateData, number: string): CertificateData | undefined {
  const holder = data.travellers.find((traveller) => traveller.number === number);
  return holder ? { ...data, travellers: [holder] } : undefined;
}

/** Each traveller's own certificate of the sale, in seq order (what the buyer's e-mail carries, one file each). */
function travellerCertificates(data: CertificateData) {
  return data.travellers.flatMap((traveller) => {
    const own = travellerCertificateData(data, traveller.number);
    return own ? [{ number: traveller.number, data: own }] : [];
  });
}

/**
 * One traveller's certificate PDF, for whoever holds the sale's access token (or a live download token of it): the
 * certificate is named by the sale and its number under that same proof, never by an id alone. Else the 404.
 */
export async function travellerCertificatePdf(
  db: Database,
  saleId: number,
  number: string,
  token: string | undefined,
  origin: string,
): Promise<Uint8Array> {
  await requireSaleAccess(db, saleId, token);
  return ownCertificatePdf(db, saleId, number, origin);
}

/** One traveller's certificate PDF of a sale whose access the caller checked («Mi compra», the link above). */
export async function ownCertificatePdf(db: Database, saleId: number, number: string, origin: string) {
  const own = travellerCertificateData(await certificateData(db, saleId, origin), number);
  if (!own) throw resourceNotFound();
  return renderCertificatePdf(own);
}

/** The sale's certificates for the success page: each traveller's name and number (links are built by the caller). */
export async function certificateList(db: Database, saleId: number, token: string | undefined) {
  await requireSaleAccess(db, saleId, token);
  const people = await repository.listCertificatesOfSale(db, saleId);
  return people.map((person) => ({ certificate: person.number, name: `${person.firstName} ${person.lastName}` }));
}

/**
 * A paid sale and what it bought (its snapshot, or for older sales its quotation), or the catalogue's 404: what
 * «Mi compra» (modules/purchases) shows and its receipt prints.
 */
export async function paidPurchase(db: Database, saleId: number) {
  const sale = await requirePaidSale(db, saleId, { withdrawn: 'allow' });
  return { sale, bought: sale.purchase ?? (await purchaseFromQuotation(db, sale)) };
}

/** The purchase of a sale paid before snapshots were kept, read from its quotation and certificates. */
async function purchaseFromQuotation(
  db: Database,
  sale: {
    companyId: number;
    quotationId: string;
    productId: number;
    amountUsdCents: number;
    amountClp: number;
    id: number;
  },
): Promise<PurchaseSnapshot> {
  const [quotation, plan, people] = await Promise.all([
    getQuotation(db, sale.companyId, sale.quotationId),
    planSummary(db, sale.productId),
    repository.listCertificatesOfSale(db, sale.id, { includeVoided: true }),
  ]);
  const labels = await catalog.tripLabels(db, sale.companyId, quotation.destination, quotation.modality);
  return {
    plan: { id: sale.productId, ...plan },
    trip: {
      originId: quotation.origin,
      destinationId: quotation.destination,
      destination: labels.destination,
      modalityId: quotation.modality,
      modality: labels.modality,
      departureDate: quotation.departureDate,
      returnDate: quotation.returnDate,
      days: tripDays(quotation.departureDate, quotation.returnDate),
      passengers: quotation.passangerTypes.map((p) => ({ passengerTypeId: p.passengerTypeId, quantity: p.quantity })),
      discountCode: quotation.discountCode,
      upgradeCovid: quotation.upgradeCovid,
    },
    price: { totalUsdCents: sale.amountUsdCents, totalClp: sale.amountClp },
    travellers: people.map((person) => ({
      seq: person.seq,
      firstName: person.firstName,
      lastName: person.lastName,
      documentType: person.documentType,
      documentNumber: person.documentNumber,
      birthDate: person.birthDate,
      email: person.email,
    })),
  };
}

/** The PDF of a paid sale, for whoever holds its access token; anyone else gets the catalogue's 404. */
export async function certificatePdf(
  db: Database,
  saleId: number,
  token: string | undefined,
  origin: string,
): Promise<Uint8Array> {
  await requireSaleAccess(db, saleId, token);
  return renderCertificatePdf(await certificateData(db, saleId, origin));
}

/**
 * Spec §7: the answer's message holds the file link, which the browser downloads as certificado.pdf. The sale id
 * is printed on every certificate, so the link needs a token as well: it carries on the very token it was asked
 * with. A download token of the search gets a link with that download token (dead when it expires), never the
 * sale's access token, which would open the PDF for good (docs/decisions/011).
 */
export async function certificateLink(db: Database, saleId: number, token: string | undefined) {
  const presented = await requireSaleAccess(db, saleId, token);
  return {
    message: `/api/certificates/b2c/${saleId}/${certificateFileName}?token=${encodeURIComponent(presented)}`,
  };
}

/** The token that opens this paid sale (its access token, or a live download token of it); else the 404. */
async function requireSaleAccess(db: Database, saleId: number, token: string | undefined): Promise<string> {
  const sale = await requirePaidSale(db, saleId);
  if (token !== undefined && (accessTokenMatches(sale.accessToken, token) || downloadTokenMatches(sale, token))) {
    return token;
  }
  throw resourceNotFound();
}

/** Manual sends of one sale share a key per window: one e-mail per window however often the button is pressed. */
export const manualEmailWindowMs = 10 * 60 * 1000;
/** What the dedupe keys of every e-mail sent on a visitor's request for this sale start with (the per-sale cap counts them). */
const manualEmailKeyPrefix = (saleId: number) => `certificate:manual:${saleId}:`;
export const manualEmailDedupeKey = (saleId: number, now = Date.now()) =>
  `${manualEmailKeyPrefix(saleId)}${Math.floor(now / manualEmailWindowMs)}`;
/** «Enviar Certificado» of the search: one e-mail per certificate and window, counted with the sale's other sends. */
export const searchEmailDedupeKey = (saleId: number, certificate: string, now = Date.now()) =>
  `${manualEmailKeyPrefix(saleId)}${certificate}:${Math.floor(now / manualEmailWindowMs)}`;

/**
 * However the sends on request are made (auto-envio of the quotation, «Enviar Certificado» of each certificate of
 * the sale), at most this many e-mails of one sale an hour: the inboxes the sale holds are not a visitor's to flood.
 */
export const manualEmailsPerSalePerHour = 3;

async function queueManualEmail(db: Database, saleId: number, payload: object, dedupeKey: string) {
  const outcome = await enqueueWithinCap(db, certificateEmailKind, payload, dedupeKey, {
    keyPrefix: manualEmailKeyPrefix(saleId),
    max: manualEmailsPerSalePerHour,
    withinSeconds: 60 * 60,
  });
  // Over the cap: 429 with Retry-After, as the per-client limits answer.
  if ('retryAfterSeconds' in outcome) {
    throw new ApiError(429, errorMessages.tooManyRequests, [], outcome.retryAfterSeconds);
  }
}

/**
 * auto-envio: the certificate e-mail once more, on request (spec §7: type 0, canal 'WEB'), to the travellers of the
 * sale (the addresses it holds, never one the visitor gives). At most one per sale every 10 minutes: a repeated
 * request within the window is accepted but queues nothing new; and at most `manualEmailsPerSalePerHour` an hour.
 */
export async function requestCertificateEmail(db: Database, quotationId: string) {
  const sale = await findSaleOfQuotation(db, quotationId);
  if (sale?.status !== 'paid') throw resourceNotFound();
  await queueManualEmail(db, sale.id, { saleId: sale.id }, manualEmailDedupeKey(sale.id));
  return sale.id;
}

/** The automatic e-mail after payment; called inside the paying transaction, deduplicated per sale. */
export async function queueAutomaticCertificateEmail(tx: Database, saleId: number) {
  await enqueue(tx, certificateEmailKind, { saleId }, `certificate:auto:${saleId}`);
}

export {
  certificateHistoryOfSale,
  type HolderMatch,
  issueCertificates,
  saleOfCertificate,
  salesOfHolder,
  voidCertificatesOfSale,
} from './repository.ts';

/**
 * After a date change (inside its transaction): the sale's certificates are voided and new ones issued from the
 * sale's new snapshot (numbers …-C{change}) with a verification code of their own (the old code answers
 * «reemplazado», with the dates it certified), and the certificate e-mail is queued for them.
 */
export async function replaceCertificates(
  tx: Database,
  sale: { id: number; quotationId: string; companyId: number },
  changeId: number,
  year: number,
) {
  const change = (await listDateChanges(tx, sale.id)).find((candidate) => candidate.id === changeId);
  if (!change) throw new Error(`Date change ${changeId} is not of sale ${sale.id}`);
  await repository.voidCertificatesOfSale(tx, sale.id, 'date_change');
  await repository.replaceVerificationCode(tx, sale.id, {
    departureDate: change.previousDepartureDate,
    returnDate: change.previousReturnDate,
  });
  await repository.issueCertificates(tx, sale, year, `C${changeId}`);
  await enqueue(tx, certificateEmailKind, { saleId: sale.id }, `certificate:date-change:${changeId}`);
}

/**
 * After an operator corrected a traveller's name or document (inside that transaction, the traveller row and the
 * sale's snapshot already corrected): the certificates are voided and issued again (numbers …-R{version}) with a new
 * verification code, the old one answering «reemplazado» with the same dates, and the e-mail is queued with them.
 * Answers the new version.
 */
export async function reissueCorrectedCertificates(
  tx: Database,
  sale: { id: number; quotationId: string; companyId: number },
  trip: { departureDate: string; returnDate: string },
  year: number,
) {
  await repository.voidCertificatesOfSale(tx, sale.id, 'correction');
  await repository.replaceVerificationCode(tx, sale.id, trip);
  const version = await repository.currentVerificationVersion(tx, sale.id);
  await repository.issueCertificates(tx, sale, year, `R${version}`);
  await enqueue(tx, certificateEmailKind, { saleId: sale.id }, `certificate:correction:${sale.id}:${version}`);
  return version;
}

/** What marks a test payment's documents: no money moved, the certificate covers nobody. */
export const testPaymentMark = testPaymentStamp;

/** The signed «Mi compra» link of a sale (modules/purchases), which the purchase e-mail carries. */
/**
 * What was bought and how it was paid, and who sold it, as the purchase confirmation states them (Ley 19.496 and
 * DS 6/2021 ask an online seller to confirm these; Transbank asks for the payment type and the instalments).
 */
async function purchaseLines(db: Database, saleId: number, data: CertificateData): Promise<string[]> {
  const [sale, ledger] = await Promise.all([findSale(db, saleId), saleLedger(db, saleId)]);
  if (!sale) return [];
  // The sale's ledger: one payment with its instalments, or (after a date change) every payment and refund and the net;
  // its total worded as the plan's price was («IVA 19 % incluido» or «no afecto a IVA»).
  const paid = ledgerEmailLines(ledger, sale.amountUsdCents / 100, await planTaxBp(db, sale.productId));
  // The plan and each traveller's add-on, then the total charged (issue 27 §1); a plan alone: the ledger's total only.
  const breakdown = sale.purchase ? priceBreakdownLines(sale.purchase) : [];
  return [
    ...breakdown,
    ...paid,
    withdrawalNotice,
    `Vendido por ${data.company.legalName}, RUT ${data.company.rut}, ${data.company.address}.`,
  ];
}

export type PurchaseLinkOf = (saleId: number) => Promise<string>;

/**
 * Where the buyer's e-mail goes: the contact address of the quotation (the quote step's e-mail) when it was given,
 * else the first traveller's. This e-mail carries every traveller's certificate and the purchase confirmation.
 */
async function buyerAddress(db: Database, saleId: number, data: CertificateData, travellers: Traveller[]) {
  const buyer = await saleBuyer(db, saleId, travellers);
  return (buyer?.email || data.recipients[0] || '').toLowerCase();
}

type Traveller = { seq: number; email: string; documentType: number; documentNumber: string };

/**
 * Who bought a sale, as «Mi compra» tells the buyer from a traveller (docs/my-purchase.md): the sale's e-mail (the
 * quote step's contact address when it was given, else the first traveller's) and the payer's document (the quote
 * step's RUT when it was given and valid, else the first traveller's document). `travellers`: the sale's, in seq order.
 */
export async function saleBuyer(db: Database, saleId: number, travellers: Traveller[]) {
  const sale = await findSale(db, saleId);
  const quotation = sale ? await getQuotation(db, sale.companyId, sale.quotationId).catch(() => null) : null;
  return buyerOf(quotation, travellers);
}

/**
 * Sends the certificate e-mails of one job. A whole-sale job (payment, auto-envio) sends the buyer one e-mail with
 * every traveller's own PDF attached, plus one e-mail to each other traveller with their own PDF only, addressed to
 * them alone: no traveller sees another's RUT, birth date or address. A send asked for from the certificate search
 * (`certificate`) goes to that certificate's holder only, with that PDF. Answers how many addresses were written to.
 */
async function sendCertificateEmail(
  db: Database,
  mailer: Mailer,
  origin: string,
  email: { jobId: number; saleId: number; certificate?: string },
  purchaseLinkOf?: PurchaseLinkOf,
) {
  const data = await certificateData(db, email.saleId, origin);
  const people = await repository.listCertificatesOfSale(db, email.saleId);
  const own = travellerCertificates(data);
  const ctx = { mailer, data, saleId: email.saleId, origin };
  if (email.certificate) {
    const holder = people.find((person) => person.number === email.certificate);
    const certificate = own.find((item) => item.number === email.certificate);
    if (!holder || !certificate) throw new Error('The certificate is not of this sale');
    await sendOne(ctx, {
      messageId: certificateMessageId(email.jobId, mailer.from),
      to: holder.email.toLowerCase(),
      certificates: [certificate],
    });
    return 1;
  }
  // The whole purchase opens only from the buyer's e-mail, not from one certificate sent to its holder.
  const link = purchaseLinkOf ? await purchaseLinkOf(email.saleId) : null;
  const buyer = await buyerAddress(db, email.saleId, data, people);
  await sendOne(ctx, {
    messageId: certificateMessageId(email.jobId, mailer.from),
    to: buyer,
    certificates: own,
    purchase: await purchaseLines(db, email.saleId, data),
    link,
  });
  let sent = 1;
  for (const person of people) {
    const address = person.email.toLowerCase();
    const certificate = own.find((item) => item.number === person.number);
    // The buyer already has every certificate; a traveller without one (none issued) has nothing to get.
    if (address === buyer || !certificate) continue;
    await sendOne(ctx, {
      // Stable per traveller and job: a retried job sends each e-mail again with the same Message-ID.
      messageId: certificateMessageId(email.jobId, mailer.from, person.seq),
      to: address,
      certificates: [certificate],
    });
    sent += 1;
  }
  return sent;
}

/** One certificate e-mail to one address, with the given certificates attached (one PDF each). */
async function sendOne(
  ctx: { mailer: Mailer; data: CertificateData; saleId: number; origin: string },
  email: {
    messageId: string;
    to: string;
    certificates: { number: string; data: CertificateData }[];
    purchase?: string[];
    link?: string | null;
  },
) {
  const { mailer, data, saleId, origin } = ctx;
  const purchase = email.purchase ?? [];
  const link = email.link ?? null;
  const linkText = link ? `\n\nRevisa tu compra y descarga tu comprobante en «Mi compra»: ${link}` : '';
  const purchaseText = purchase.length > 0 ? `\n\n${purchase.join('\n')}` : '';
  // The general conditions, as a printable PDF (modules/legal), with the buyer's purchase confirmation.
  const conditions = purchase.length > 0 ? `${origin}${generalConditionsPath}` : null;
  const conditionsText = conditions ? `\nCondiciones generales (PDF): ${conditions}` : '';
  const names = email.certificates
    .flatMap((item) => item.data.travellers)
    .map((t) => `${t.name} (${t.number})`)
    .join(', ');
  const attachments = await Promise.all(
    email.certificates.map(async (item) => ({
      filename: travellerCertificateFileName(item.number),
      content: await renderCertificatePdf(item.data),
      contentType: 'application/pdf',
    })),
  );
  const period = `${data.trip.departureDate.split('-').reverse().join('-')} al ${data.trip.returnDate.split('-').reverse().join('-')}`;
  const testNotice = data.testPayment
    ? `${testPaymentMark}: esta compra se pagó en la pasarela de prueba; no se cobró dinero y el certificado no otorga cobertura.`
    : null;
  const plural = email.certificates.length > 1;
  const what = plural ? 'los certificados' : 'el certificado';
  const help = assistanceLines(data);
  const [helpTitle = '', ...helpSteps] = help;
  const activation = helpSteps.indexOf(activationTitle);
  const subject = `${data.testPayment ? `[${testPaymentMark}] ` : ''}Tu certificado de asistencia en viaje ${data.company.name} – venta N° ${saleId}`;
  const intro = `Adjuntamos ${what} de tu plan ${data.plan.label} para tu viaje a ${data.trip.destination} (${period}).`;
  const blocks: EmailBlock[] = [
    ...(testNotice ? [{ type: 'notice' as const, text: testNotice }] : []),
    { type: 'text', text: 'Hola,' },
    { type: 'text', text: intro },
    { type: 'text', text: `${plural ? 'Pasajeros' : 'Pasajero'}: ${names}.` },
    // The emergency numbers, then how to activate the assistance, each in its own box (the certificate's words).
    { type: 'box', title: helpTitle, lines: activation < 0 ? helpSteps : helpSteps.slice(0, activation) },
    ...(activation < 0
      ? []
      : [{ type: 'box' as const, title: activationTitle, lines: helpSteps.slice(activation + 1) }]),
    ...(purchase.length > 0 ? [{ type: 'box' as const, title: 'Tu compra', lines: purchase }] : []),
    ...(conditions
      ? [
          {
            type: 'link' as const,
            before: 'Condiciones generales: ',
            href: conditions,
            label: 'descargar PDF',
            after: '.',
          },
        ]
      : []),
    ...(link
      ? [
          { type: 'text' as const, text: 'Revisa tu compra y descarga tu comprobante en «Mi compra».' },
          { type: 'button' as const, href: link, label: 'Ir a Mi compra' },
        ]
      : []),
    { type: 'text', text: `Buen viaje,\n${data.company.name}` },
  ];
  await mailer.send({
    // The same id on every attempt of this e-mail: a copy sent again after a crash is recognisably the same message.
    messageId: email.messageId,
    to: [email.to],
    subject,
    text: `${testNotice ? `${testNotice}\n\n` : ''}Hola,\n\nAdjuntamos ${what} de tu plan ${data.plan.label} para tu viaje a ${data.trip.destination} (${period}).\n${plural ? 'Pasajeros' : 'Pasajero'}: ${names}.\n\n${help.join('\n')}${purchaseText}${conditionsText}${linkText}\n\nBuen viaje,\n${data.company.name}`,
    html: await emailHtml({ brand: data.company.name, title: subject, preview: intro, blocks }),
    attachments,
  });
}

const activationTitle = 'Cómo activar tu asistencia:';

/**
 * What every traveller's e-mail says about getting help, as the certificate prints it: the 24/7 numbers from Chile,
 * from abroad and WhatsApp, then how to activate the assistance (activationSteps, the certificate's own words).
 */
export function assistanceLines(data: CertificateData): string[] {
  const fromChile = data.emergencyPhones.map((phone) => phone.phone).join(' / ');
  return [
    'Ante cualquier emergencia, nuestra central te atiende 24 horas, 365 días:',
    ...(fromChile ? [`- Desde Chile: ${fromChile}`] : []),
    ...(data.assistance.abroadPhone ? [`- Desde el extranjero: ${data.assistance.abroadPhone}`] : []),
    ...(data.assistance.whatsapp ? [`- WhatsApp: ${data.assistance.whatsapp}`] : []),
    activationTitle,
    ...activationSteps(data.assistance).map((step, index) => `${index + 1}. ${step}`),
  ];
}

/** The general conditions PDF (modules/legal), as the storefront serves the API. */
export const generalConditionsPath = '/api/legal/condiciones-generales.pdf';

/**
 * `<outbox-{job id}@{sender's domain}>`: stable per queued e-mail, unique across e-mails. The `outbox-` prefix is
 * the one e-mails had before the job queue, whose ids the queue kept: a message is the same one across that change.
 */
export function certificateMessageId(jobId: number, from: string, travellerSeq?: number): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'travesia.cl';
  return `<outbox-${jobId}${travellerSeq === undefined ? '' : `-t${travellerSeq}`}@${domain}>`;
}

/**
 * The certificate e-mail job: sends the sale's certificates to its travellers. At least once: a run that dies after
 * the SMTP server accepted the message sends it again, with the same Message-ID (the job's).
 */
export function certificateEmailJob(
  db: Database,
  mailer: Mailer,
  origin: string,
  purchaseLinkOf?: PurchaseLinkOf,
): JobHandler<{ saleId: number; certificate?: string | undefined }> {
  return {
    payload: z.object({ saleId: z.number().int().positive(), certificate: z.string().optional() }),
    logFields: ({ saleId }) => ({ saleId }),
    // SMTP rejections quote the addresses: the log gets the codes only.
    errorFields: mailFailureFields,
    async run({ saleId, certificate }, job) {
      // Withdrawn since it was queued: its certificates are void, nothing is sent.
      if (wasWithdrawn((await findSale(db, saleId))?.status)) return { skipped: 'withdrawn' };
      const recipients = await sendCertificateEmail(
        db,
        mailer,
        origin,
        { jobId: job.id, saleId, certificate },
        purchaseLinkOf,
      );
      return { recipients, destination: mailer.destination };
    },
  };
}

// ─── Verification, Schengen, search ───────────────────────────────────────────────────────────────────────────────

/** The least medical and repatriation cover a Schengen visa requires, in euros; the certificate guarantees it. */
export const schengenMinimumCoverEur = 30_000;

/** The public page a certificate's QR code and code open: at the configured origin, never one a request names. */
export const verificationUrl = (origin: string, code: string) => `${origin}/verificar/${code}`;

/**
 * Whether the trip is to a Schengen state: the travellers' destination country when they named one, else the
 * destination region when every one of its countries is (`countries.schengen`, kept in the console's «Geografía»).
 */
async function isSchengenTrip(db: Database, quotationId: string, destinationId: number) {
  const countryId = await getPassengers(db, quotationId).then(
    (passengers) => passengers.countryDestination,
    () => null,
  );
  if (countryId) {
    const country = await catalog.findCountry(db, countryId);
    if (country) return country.schengen;
  }
  return catalog.isSchengenDestination(db, destinationId);
}

/** What a verification answers: enough for a consulate or a clinic, nothing that identifies the holder. */
export type CertificateVerification = {
  code: string;
  status: 'valid' | 'expired' | 'not_started' | 'void' | 'cancelled' | 'replaced';
  /** The dates this code's certificates certified (a replaced code: those it had, never the new trip's). */
  departureDate: string;
  returnDate: string;
  destination: string;
  plan: string;
  holders: string[];
  issuedAt: string;
  /** When a date change replaced this code's certificates (status `replaced`); else null. */
  replacedAt: string | null;
};

/** «María José Pérez Soto» → «M. J. P. S.» */
export function initialsOf(firstName: string, lastName: string): string {
  return `${firstName} ${lastName}`
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => `${word.charAt(0).toLocaleUpperCase('es-CL')}.`)
    .join(' ');
}

/**
 * GET /certificates/verification/{code}: whether the certificate is in force today in Chile (valid, not yet
 * started, expired; void when it was a test payment; cancelled by a withdrawal), its dates, destination and plan,
 * and the holders' initials. Each version of a sale's certificates has its own code: a code a date change replaced
 * answers `replaced`, with when and the dates it certified, and nothing of the new trip. An unknown code is the
 * catalogue's 404.
 */
export async function verifyCertificate(
  db: Database,
  code: string,
  today = todayInChile(),
): Promise<CertificateVerification> {
  const normalised = repository.normaliseVerificationCode(code);
  if (normalised.length !== repository.verificationCodeLength) throw resourceNotFound();
  const found = await repository.findVerificationCode(db, normalised);
  if (found === undefined) throw resourceNotFound();
  const sale = await requirePaidSale(db, found.saleId, { withdrawn: 'allow' });
  // Read again after the sale: a date change committed since the first read shows here as replaced, so an old code
  // is never answered with the new trip the sale was just read with.
  const version = found.replacedAt ? found : ((await repository.findVerificationCode(db, normalised)) ?? found);
  const bought = sale.purchase ?? (await purchaseFromQuotation(db, sale));
  const replaced = version.replacedAt !== null;
  // A replaced version's own dates (frozen when it was replaced); the current one's are the sale's.
  const departureDate = (replaced ? version.departureDate : null) ?? bought.trip.departureDate;
  const returnDate = (replaced ? version.returnDate : null) ?? bought.trip.returnDate;
  // A withdrawn sale's certificates were voided the moment the withdrawal was accepted («anulado»).
  const status = replaced
    ? 'replaced'
    : wasWithdrawn(sale.status)
      ? 'cancelled'
      : sale.testPayment
        ? 'void'
        : today < departureDate
          ? 'not_started'
          : today > returnDate
            ? 'expired'
            : 'valid';
  return {
    code: normalised,
    status,
    departureDate,
    returnDate,
    destination: bought.trip.destination,
    plan: bought.plan.label,
    holders: bought.travellers.map((person) => initialsOf(person.firstName, person.lastName)),
    // Version 1 was issued when the sale was paid; a later one when the date change that made it was applied.
    issuedAt: (version.version === 1 ? (sale.paidAt ?? sale.createdAt) : version.createdAt).toISOString(),
    replacedAt: version.replacedAt?.toISOString() ?? null,
  };
}

/** «camila@example.cl» → «ca***@ex***.cl»: enough for the holder to recognise, too little to write to. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return '***';
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local.slice(0, Math.min(2, local.length - 1))}***@${host.slice(0, Math.min(2, host.length - 1))}***${tld}`;
}

/** How long a download token of a search answer opens the PDF. */
export const downloadTokenTtlMs = 10 * 60 * 1000;

/**
 * A download token: `d.{expiry ms}.{HMAC-SHA256 of the sale id and expiry, keyed by the sale's access token}`.
 * Bound to one sale, expires by itself, and needs no secret of its own (the key never leaves the database).
 */
export function downloadToken(sale: { id: number; accessToken: string }, now = Date.now()): string {
  const expires = now + downloadTokenTtlMs;
  return `d.${expires}.${downloadSignature(sale, expires)}`;
}

const downloadSignature = (sale: { id: number; accessToken: string }, expires: number) =>
  createHmac('sha256', sale.accessToken).update(`certificate-download:${sale.id}:${expires}`).digest('base64url');

function downloadTokenMatches(sale: { id: number; accessToken: string }, token: string | undefined): boolean {
  const match = /^d\.(\d{13})\.([A-Za-z0-9_-]{43})$/.exec(token ?? '');
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires < Date.now() || expires > Date.now() + downloadTokenTtlMs) return false;
  return accessTokenMatches(downloadSignature(sale, expires), match[2]);
}

/** One card of the certificate search (spec §3 Certificate, plus what the card needs to act). */
export type FoundCertificate = {
  idVenta: number;
  certificate: string;
  name: string;
  lastName: string;
  email: string;
  departureDate: string;
  returnDate: string;
  downloadToken: string | null;
};

/**
 * GET /certificates?word=: the certificates of the company's paid sales whose holder has this document (a RUT in
 * any form, a DNI or passport number) or e-mail. The e-mail is masked unless the search was by it; a download token
 * comes only with a search by e-mail and only when downloads are on (docs/decisions/011). Only the search keys this
 * module wrote when it issued each certificate are looked at: travellers of unpaid quotations cannot crowd it.
 */
export async function searchCertificates(
  db: Database,
  companyId: number,
  word: string,
  options: { downloads: boolean },
): Promise<FoundCertificate[]> {
  const byEmail = word.includes('@');
  const found = await repository.findCertificatesByIdentity(
    db,
    companyId,
    byEmail ? { email: word } : { document: word },
  );
  // Travellers and sales of every certificate found, one query each (not one per sale).
  const [people, sales] = await Promise.all([
    listTravellersByIds(
      db,
      found.map((row) => row.travellerId),
    ),
    findSales(db, [...new Set(found.map((row) => row.saleId))]),
  ]);
  const personById = new Map(people.map((person) => [person.id, person]));
  const saleById = new Map(sales.map((sale) => [sale.id, sale]));
  // Newest issued first: the order of the search query itself.
  const cards: FoundCertificate[] = [];
  for (const row of found) {
    const sale = saleById.get(row.saleId);
    const person = personById.get(row.travellerId);
    if (!sale || !person || sale.status !== 'paid' || sale.companyId !== companyId) continue;
    const trip = sale.purchase?.trip ?? (await getQuotation(db, sale.companyId, sale.quotationId));
    cards.push({
      idVenta: sale.id,
      certificate: row.number,
      name: person.firstName,
      lastName: person.lastName,
      email: byEmail ? person.email : maskEmail(person.email),
      departureDate: trip.departureDate,
      returnDate: trip.returnDate,
      downloadToken: options.downloads && byEmail ? downloadToken(sale) : null,
    });
  }
  return cards;
}

/**
 * «Enviar Certificado» of the search: the certificate e-mailed again to the address on it (its holder's), never to
 * one the visitor gives. At most once per certificate every 10 minutes, and within the sale's hourly cap; an unknown
 * number is the catalogue's 404.
 */
export async function requestCertificateSend(db: Database, companyId: number, number: string) {
  const certificate = await repository.findCertificate(db, number);
  if (!certificate) throw resourceNotFound();
  const sale = await requirePaidSale(db, certificate.saleId);
  if (sale.companyId !== companyId) throw resourceNotFound();
  await queueManualEmail(db, sale.id, { saleId: sale.id, certificate: number }, searchEmailDedupeKey(sale.id, number));
}

/** A certificate by its number (sale and traveller), or undefined: «Mi compra» accepts either number. */
export const findCertificateByNumber = repository.findCertificate;

/**
 * What a refund claim says it holds: the certificate `number` names (or, for a sale number, that sale's certificate)
 * whose traveller has `document` (a RUT in any of its forms, a DNI or passport), in the company. `valid` with the
 * dates it covers (the trip as bought, or as last changed); `void` when voided (withdrawal, replaced by a date
 * change) or its sale is no longer paid; undefined when there is none — an unknown number, another company's, or a
 * document that is not its holder's alike, so the answer tells no one without the document whether a number exists.
 */
export type HeldCertificate =
  | { state: 'valid'; number: string; saleId: number; departureDate: string; returnDate: string }
  | { state: 'void'; number: string };

export async function heldCertificate(
  db: Database,
  companyId: number,
  number: string,
  document: string,
): Promise<HeldCertificate | undefined> {
  const wanted = number.trim().toUpperCase();
  const saleNumber = /^\d{1,10}$/.test(wanted) && Number(wanted) <= 2_147_483_647 ? Number(wanted) : undefined;
  const candidates =
    saleNumber === undefined
      ? [await repository.findCertificate(db, wanted)].filter((found) => found !== undefined)
      : await repository.findCertificatesOfSale(db, saleNumber);
  const key = repository.documentSearchKey(document);
  const holders = await listTravellersByIds(
    db,
    candidates.map((certificate) => certificate.travellerId),
  );
  const holderIds = new Set(
    holders.filter((person) => repository.documentSearchKey(person.documentNumber) === key).map((p) => p.id),
  );
  const held = candidates.filter((certificate) => key !== '' && holderIds.has(certificate.travellerId));
  const first = held[0];
  if (!first) return undefined;
  const sale = await findSale(db, first.saleId);
  if (!sale || sale.companyId !== companyId || !wasPaid(sale.status)) return undefined;
  const valid = held.find((certificate) => certificate.voidedAt === null);
  if (!valid || sale.status !== 'paid') return { state: 'void', number: first.number };
  const trip = sale.purchase?.trip ?? (await getQuotation(db, sale.companyId, sale.quotationId));
  return {
    state: 'valid',
    number: valid.number,
    saleId: sale.id,
    departureDate: trip.departureDate,
    returnDate: trip.returnDate,
  };
}

/** The certificate's PDF, with the PDF writer (pdf-lib, qrcode) loaded on the first one, not at start-up. */
export async function renderCertificatePdf(data: CertificateData): Promise<Uint8Array> {
  return (await import('./pdf.ts')).renderCertificatePdf(data);
}
