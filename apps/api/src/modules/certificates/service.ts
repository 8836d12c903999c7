import { tripDays } from '@travesia/domain/dates';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { resourceNotFound } from '#app/errors.ts';
import type { Mailer } from '#app/integrations/mail/mailer.ts';
import { accessTokenMatches } from '#app/lib/access-token.ts';
import { loggableError } from '#app/lib/loggable-error.ts';
import * as catalog from '#app/modules/catalog/service.ts';
import { requireCompany } from '#app/modules/company/service.ts';
import * as content from '#app/modules/content/service.ts';
import { enqueue, type JobHandler, type LogFields } from '#app/modules/jobs/service.ts';
import { findSale, findSaleOfQuotation, type PurchaseSnapshot } from '#app/modules/payments/service.ts';
import { planSummary } from '#app/modules/plans/service.ts';
import { getQuotation } from '#app/modules/quotations/service.ts';
import { type CertificateData, renderCertificatePdf, testPaymentStamp } from './pdf.ts';
import * as repository from './repository.ts';

export const certificateFileName = 'certificado.pdf';
/** The job that e-mails a paid sale's certificates (modules/jobs); its payload is `{ saleId }`. */
export const certificateEmailKind = 'certificate-email';

const documentLabel = (type: number, number: string) => `${type === 1 ? 'RUT' : 'DNI'} ${number}`;

/** A paid sale, or the catalogue's 404: certificates exist only for paid sales. */
async function requirePaidSale(db: Database, saleId: number) {
  const sale = await findSale(db, saleId);
  if (sale?.status !== 'paid') throw resourceNotFound();
  return sale;
}

export async function listCertificates(db: Database, saleId: number) {
  await requirePaidSale(db, saleId);
  return repository.listCertificatesOfSale(db, saleId);
}

/**
 * What a certificate says: the purchase the sale paid for (the snapshot frozen when its payment started), never the
 * quotation as it may read today. Sales paid before snapshots existed are read from their quotation.
 */
export async function certificateData(db: Database, saleId: number): Promise<CertificateData> {
  const sale = await requirePaidSale(db, saleId);
  const [company, people, contacts] = await Promise.all([
    requireCompany(db, sale.companyId),
    repository.listCertificatesOfSale(db, saleId),
    content.listContactInfos(db, sale.companyId),
  ]);
  const bought = sale.purchase ?? (await purchaseFromQuotation(db, sale));
  const numbers = new Map(people.map((person) => [person.seq, person.number]));
  return {
    company: { name: company.name, legalName: company.legalName, rut: company.rut, address: company.address },
    saleId,
    issuedAt: sale.paidAt ?? sale.createdAt,
    testPayment: sale.testPayment,
    plan: { label: bought.plan.label, benefits: bought.plan.benefits },
    trip: {
      destination: bought.trip.destination,
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
    })),
    recipients: [...new Set(bought.travellers.map((person) => person.email.toLowerCase()))],
    emergencyPhones: contacts
      .filter((contact) => contact.isEmergency)
      .map((contact) => ({ label: contact.label, phone: contact.phone, whatsapp: contact.whatsapp })),
  };
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
    repository.listCertificatesOfSale(db, sale.id),
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
export async function certificatePdf(db: Database, saleId: number, token: string | undefined): Promise<Uint8Array> {
  await requireSaleAccess(db, saleId, token);
  return renderCertificatePdf(await certificateData(db, saleId));
}

/**
 * Spec §7: the answer's message holds the file link, which the browser downloads as certificado.pdf. The sale id
 * is printed on every certificate, so the link needs the sale's access token as well (it carries it on).
 */
export async function certificateLink(db: Database, saleId: number, token: string | undefined) {
  const sale = await requireSaleAccess(db, saleId, token);
  return {
    message: `/api/certificates/b2c/${saleId}/${certificateFileName}?token=${encodeURIComponent(sale.accessToken)}`,
  };
}

async function requireSaleAccess(db: Database, saleId: number, token: string | undefined) {
  const sale = await requirePaidSale(db, saleId);
  if (!accessTokenMatches(sale.accessToken, token)) throw resourceNotFound();
  return sale;
}

/** Manual sends of one sale share a key per window: one e-mail per window however often the button is pressed. */
export const manualEmailWindowMs = 10 * 60 * 1000;
export const manualEmailDedupeKey = (saleId: number, now = Date.now()) =>
  `certificate:manual:${saleId}:${Math.floor(now / manualEmailWindowMs)}`;

/**
 * auto-envio: the certificate e-mail once more, on request (spec §7: type 0, canal 'WEB'). At most one per sale every
 * 10 minutes: a repeated request within the window is accepted but queues nothing new.
 */
export async function requestCertificateEmail(db: Database, quotationId: string) {
  const sale = await findSaleOfQuotation(db, quotationId);
  if (sale?.status !== 'paid') throw resourceNotFound();
  await enqueue(db, certificateEmailKind, { saleId: sale.id }, manualEmailDedupeKey(sale.id));
  return sale.id;
}

/** The automatic e-mail after payment; called inside the paying transaction, deduplicated per sale. */
export async function queueAutomaticCertificateEmail(tx: Database, saleId: number) {
  await enqueue(tx, certificateEmailKind, { saleId }, `certificate:auto:${saleId}`);
}

export { issueCertificates } from './repository.ts';

/** What marks a test payment's documents: no money moved, the certificate covers nobody. */
export const testPaymentMark = testPaymentStamp;

async function sendCertificateEmail(db: Database, mailer: Mailer, email: { jobId: number; saleId: number }) {
  const data = await certificateData(db, email.saleId);
  const pdf = await renderCertificatePdf(data);
  const names = data.travellers.map((t) => `${t.name} (${t.number})`).join(', ');
  const period = `${data.trip.departureDate.split('-').reverse().join('-')} al ${data.trip.returnDate.split('-').reverse().join('-')}`;
  const testNotice = data.testPayment
    ? `${testPaymentMark}: esta compra se pagó en la pasarela de prueba; no se cobró dinero y el certificado no otorga cobertura.`
    : null;
  await mailer.send({
    // The same id on every attempt of this e-mail: a copy sent again after a crash is recognisably the same message.
    messageId: certificateMessageId(email.jobId, mailer.from),
    to: data.recipients,
    subject: `${data.testPayment ? `[${testPaymentMark}] ` : ''}Tu certificado de asistencia en viaje ${data.company.name} – venta N° ${email.saleId}`,
    text: `${testNotice ? `${testNotice}\n\n` : ''}Hola,\n\nAdjuntamos el certificado de tu plan ${data.plan.label} para tu viaje a ${data.trip.destination} (${period}).\nPasajeros: ${names}.\n\nAnte cualquier emergencia llama a nuestra central 24/7: ${data.emergencyPhones.map((p) => p.phone).join(' / ')}.\n\nBuen viaje,\n${data.company.name}`,
    html: `${testNotice ? `<p><strong>${escapeHtml(testNotice)}</strong></p>` : ''}<p>Hola,</p><p>Adjuntamos el certificado de tu plan <strong>${escapeHtml(data.plan.label)}</strong> para tu viaje a ${escapeHtml(data.trip.destination)} (${period}).</p><p>Pasajeros: ${escapeHtml(names)}.</p><p>Ante cualquier emergencia llama a nuestra central 24/7: ${escapeHtml(data.emergencyPhones.map((p) => p.phone).join(' / '))}.</p><p>Buen viaje,<br>${escapeHtml(data.company.name)}</p>`,
    attachments: [{ filename: certificateFileName, content: pdf, contentType: 'application/pdf' }],
  });
  return data.recipients.length;
}

/**
 * `<outbox-{job id}@{sender's domain}>`: stable per queued e-mail, unique across e-mails. The `outbox-` prefix is
 * the one e-mails had before the job queue, whose ids the queue kept: a message is the same one across that change.
 */
export function certificateMessageId(jobId: number, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'travesia.cl';
  return `<outbox-${jobId}@${domain}>`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** What of a failed send may be logged: the SMTP response code and the error code, never the server's text. */
function failureCodes(error: unknown): LogFields {
  const { code, causeCode } = loggableError(error);
  const responseCode = (error as { responseCode?: unknown } | null)?.responseCode;
  return { responseCode: typeof responseCode === 'number' ? responseCode : undefined, code, causeCode };
}

/**
 * The certificate e-mail job: sends the sale's certificates to its travellers. At least once: a run that dies after
 * the SMTP server accepted the message sends it again, with the same Message-ID (the job's).
 */
export function certificateEmailJob(db: Database, mailer: Mailer): JobHandler<{ saleId: number }> {
  return {
    payload: z.object({ saleId: z.number().int().positive() }),
    logFields: ({ saleId }) => ({ saleId }),
    // SMTP rejections quote the addresses: the log gets the codes only.
    errorFields: failureCodes,
    async run({ saleId }, job) {
      const recipients = await sendCertificateEmail(db, mailer, { jobId: job.id, saleId });
      return { recipients, destination: mailer.destination };
    },
  };
}
