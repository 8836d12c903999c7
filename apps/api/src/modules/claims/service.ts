import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FieldError } from '@travesia/domain/field-errors';
import type { DocumentTypeId } from '@travesia/domain/ids';
import { errorMessages } from '@travesia/domain/messages';
import {
  accountTypes,
  amountProblem,
  bankName,
  claimProblems,
  documentFileProblem,
  documentKey,
  formatRefundAmount,
  holderDocumentTypes,
  normaliseRequestNumber,
  type RefundCurrency,
  type RefundRequestInput,
  type RefundStatus,
  refundLimits,
  refundMessages,
  refundStatuses,
  refundTransitions,
  requestNumberAlphabet,
} from '@travesia/domain/refunds';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError, resourceNotFound } from '#app/errors.ts';
import type { DocumentStore } from '#app/integrations/document-store/index.ts';
import { type EmailBlock, emailHtml } from '#app/integrations/mail/email-html.ts';
import type { Mailer } from '#app/integrations/mail/mailer.ts';
import { loggableError } from '#app/lib/loggable-error.ts';
import { heldCertificate } from '#app/modules/certificates/service.ts';
import { getCompanyInfo } from '#app/modules/company/service.ts';
import { listContacts } from '#app/modules/content/service.ts';
import { enqueue, type JobHandler, type LogFields } from '#app/modules/jobs/service.ts';
import * as repository from './repository.ts';
import { DocumentProblem, discardDocuments, type StoredDocument, storeInlineDocument, takeUploads } from './uploads.ts';

export const claimEmailKind = 'refund-email';

/** Where the e-mails of refund requests point and go: the store's public origin, the company's address (config). */
export type ClaimMailSettings = {
  publicUrl?: string | undefined;
  notifyEmail?: string | undefined;
  /** The operator console's origin (BACKOFFICE_ORIGIN, else PUBLIC_URL): the company's e-mails link the claim there. */
  consoleUrl?: string | undefined;
};

/** A document as the JSON body names it: an upload's token, or a small file inline (base64). */
export type UploadedDocument = {
  token?: string | undefined;
  nombre?: string | undefined;
  contenido?: string | undefined;
};

/** `R-` and 8 characters of Crockford base32 from 40 random bits. */
export function newRequestNumber(): string {
  const bytes = randomBytes(5);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let out = '';
  for (let i = 0; i < 8; i += 1) {
    out = requestNumberAlphabet[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return `R-${out}`;
}

/**
 * The documents of a claim: the inline ones (small, base64) decoded, checked by their content and stored; the
 * uploaded ones left for `takeDocuments` to take in the claim's transaction. A bad inline file is a field error
 * naming it (`documentos.{i}`): the 400 lists every problem found, and nothing is left stored.
 */
export async function prepareDocuments(store: DocumentStore, documents: UploadedDocument[], field = 'documentos') {
  const errors: FieldError[] = [];
  const inline = new Map<number, StoredDocument>();
  const tokens: { index: number; token: string }[] = [];
  for (const [index, document] of documents.entries()) {
    if (document.token !== undefined) {
      tokens.push({ index, token: document.token });
      continue;
    }
    const name = document.nombre ?? '';
    // Decoded once (at most 256 KB: the schema bounds the text); the checks only read these bytes.
    const content = Buffer.from(document.contenido ?? '', 'base64');
    if (content.length > refundLimits.maxInlineFileBytes) {
      // The schema bounds the text; a text at its bound may still decode to a few bytes more.
      errors.push({
        field: `${field}.${index}.contenido`,
        code: 'too_long',
        message: refundMessages.fileInlineTooLarge,
      });
      continue;
    }
    const problem = documentFileProblem(name, content);
    if (problem) {
      errors.push({ field: `${field}.${index}`, ...problem });
      continue;
    }
    try {
      inline.set(index, await storeInlineDocument(store, name, content));
    } catch (error) {
      if (!(error instanceof DocumentProblem)) {
        await discardDocuments(store, [...inline.values()]);
        throw error;
      }
      errors.push({ field: `${field}.${index}`, ...error.rule });
    }
  }
  if (errors.length > 0) {
    await discardDocuments(store, [...inline.values()]);
    throw new ApiError(400, errorMessages.invalidInputParameters, errors);
  }
  return {
    inline,
    tokens,
    count: documents.length,
    /** In the claim's transaction: the uploads taken, with the inline ones, in the order the body named them. */
    async take(tx: Database, companyId: number): Promise<repository.StoredFile[]> {
      const { taken, errors: tokenErrors } = await takeUploads(tx, companyId, tokens);
      if (tokenErrors.length > 0) throw new ApiError(400, errorMessages.invalidInputParameters, tokenErrors);
      const files: repository.StoredFile[] = [];
      for (let index = 0; index < documents.length; index += 1) {
        const file = inline.get(index) ?? taken.get(index);
        if (file) files.push(file);
      }
      return files;
    },
    /** After a failed claim: the inline files stored for it go (the uploads' rows were rolled back and stay). */
    discard: () => discardDocuments(store, [...inline.values()]),
  };
}

const isUniqueViolation = (error: unknown): boolean => {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
};

/**
 * Stores a refund request with its documents and queues the two e-mails (to the holder with the number and how to
 * track it, to the company with the details), all in one transaction: a bad file stores nothing. Answers the number.
 */
export async function createClaim(
  db: Database,
  store: DocumentStore,
  companyId: number,
  input: RefundRequestInput,
): Promise<string> {
  // A claim stands on a real, paid, valid certificate of the holder whose document it gives, for a day it covers.
  // Checked before any upload token is taken, so a refused claim can be sent again with the same files.
  const held = await heldCertificate(db, companyId, input.numeroCertificado, input.numeroDocumento);
  const claimErrors = claimProblems(input, held);
  if (claimErrors.length > 0) throw new ApiError(400, errorMessages.invalidInputParameters, claimErrors);
  const documents = await prepareDocuments(store, input.documentos);
  const values = {
    companyId,
    holderName: input.nombreTitular,
    documentType: input.tipoDocumento,
    documentNumber: input.numeroDocumento,
    documentKey: documentKey(input.numeroDocumento),
    email: input.email,
    phone: input.telefono,
    certificateNumber: input.numeroCertificado,
    description: input.descripcion,
    incidentDate: input.fechaIncidente,
    amount: input.monto.toFixed(2),
    currency: input.moneda,
    bankCode: input.banco,
    accountType: input.tipoCuenta,
    accountNumber: input.numeroCuenta,
  };
  for (let attempt = 1; ; attempt += 1) {
    const number = newRequestNumber();
    try {
      const filesFor = (tx: Database) => documents.take(tx, companyId);
      await repository.insertRequestWithFiles(db, { ...values, number }, filesFor, async (tx, row) => {
        await enqueue(tx, claimEmailKind, { requestId: row.id, message: 'received-holder' }, `refund:${row.id}:holder`);
        await enqueue(
          tx,
          claimEmailKind,
          { requestId: row.id, message: 'received-company' },
          `refund:${row.id}:company`,
        );
      });
      return number;
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error)) continue;
      await documents.discard();
      throw error;
    }
  }
}

/**
 * The request of this number whose holder's document is this one; otherwise the same 404 whether the number is
 * unknown or the document wrong, so the answer tells no one which numbers exist.
 */
async function requireTracked(db: Database, companyId: number, number: string, document: string) {
  const normalised = normaliseRequestNumber(number);
  const row = normalised ? await repository.findRequest(db, companyId, normalised) : undefined;
  const given = Buffer.from(documentKey(document));
  const stored = Buffer.from(row?.documentKey ?? '');
  const matches = given.length === stored.length && timingSafeEqual(given, stored);
  if (!row || !matches || given.length === 0) throw resourceNotFound();
  return row;
}

const amountOf = (value: string | null) => (value === null ? null : Number(value));

/** What tracking shows: the status in words and what it needs, never the account or the contact data. */
export async function trackClaim(db: Database, companyId: number, number: string, document: string) {
  const row = await requireTracked(db, companyId, number, document);
  return presentTracking(db, row);
}

async function presentTracking(db: Database, row: repository.ClaimRow) {
  const files = await repository.listFiles(db, row.id);
  const status = row.status as RefundStatus;
  return {
    numero: row.number,
    estado: status,
    estadoTexto: refundStatuses[status],
    fechaSolicitud: row.createdAt.toISOString(),
    fechaActualizacion: row.updatedAt.toISOString(),
    fechaIncidente: row.incidentDate,
    numeroCertificado: row.certificateNumber,
    monto: Number(row.amount),
    moneda: row.currency as RefundCurrency,
    montoAprobado: status === 'aprobada' || status === 'pagada' ? amountOf(row.approvedAmount) : null,
    motivoRechazo: status === 'rechazada' ? row.rejectionReason : null,
    documentosFaltantes: status === 'faltan_documentos' ? row.missingDocuments : null,
    documentos: files.map((file) => ({
      nombre: file.fileName,
      tipo: file.contentType,
      tamano: file.size,
      fecha: file.createdAt.toISOString(),
    })),
  };
}

/**
 * Adds the missing documents to a request that is waiting for them (only then), and puts it back in review; the
 * company is told by e-mail. All in one transaction.
 */
export async function addDocuments(
  db: Database,
  store: DocumentStore,
  companyId: number,
  number: string,
  document: string,
  documents: UploadedDocument[],
) {
  const row = await requireTracked(db, companyId, number, document);
  const prepared = await prepareDocuments(store, documents);
  try {
    await addPreparedDocuments(db, companyId, row, prepared);
  } catch (error) {
    await prepared.discard();
    throw error;
  }
  const updated = await repository.findRequest(db, companyId, row.number);
  if (!updated) throw resourceNotFound();
  return presentTracking(db, updated);
}

async function addPreparedDocuments(
  db: Database,
  companyId: number,
  row: repository.ClaimRow,
  prepared: Awaited<ReturnType<typeof prepareDocuments>>,
) {
  await db.transaction(async (tx) => {
    const locked = await repository.lockRequest(tx, row.id);
    if (locked?.status !== 'faltan_documentos') {
      throw new ApiError(400, errorMessages.invalidInputParameters, [
        {
          field: 'documentos',
          code: 'documents_not_requested',
          message: 'Esta solicitud no está esperando documentos',
        },
      ]);
    }
    const files = await prepared.take(tx, companyId);
    await repository.insertFiles(tx, row.id, files);
    await repository.updateStatus(tx, row.id, {
      status: 'en_revision',
      approvedAmount: null,
      rejectionReason: null,
      missingDocuments: null,
    });
    await enqueue(tx, claimEmailKind, { requestId: row.id, message: 'documents-added', count: files.length });
  });
}

export type StatusChange = {
  status: RefundStatus;
  amount?: number | undefined;
  reason?: string | undefined;
  missing?: string | undefined;
  /** Words for the holder, added to the status e-mail (the console's message). */
  message?: string | undefined;
};

/** Who changes a claim, as its history names them: an operator (by e-mail), an API key, `cli` or `admin-api`. */
export type ClaimChanger = { label: string; operatorId?: string | null | undefined };

export class StatusChangeError extends Error {}

const badChange = (field: string, code: FieldError['code'], message: string) =>
  new ApiError(400, errorMessages.invalidInputParameters, [{ field, code, message }]);

/**
 * What a status change needs besides the status, checked before any lock: the amount when approving (in the claim's
 * currency, whole pesos for CLP), the reason when rejecting, what is missing when asking for documents.
 */
export function checkStatusChange(row: repository.ClaimRow, change: StatusChange) {
  const currency = row.currency as RefundCurrency;
  if (change.status === 'aprobada') {
    if (change.amount === undefined || !(change.amount > 0)) {
      throw badChange('amount', 'required', 'Para aprobar indica el monto (--amount)');
    }
    const problem = amountProblem(change.amount, currency);
    if (problem) throw badChange('amount', problem.code, problem.message);
  }
  if (change.status === 'rechazada' && !change.reason?.trim()) {
    throw badChange('reason', 'required', 'Para rechazar indica el motivo (--reason)');
  }
  if (change.status === 'faltan_documentos' && !change.missing?.trim()) {
    throw badChange('missing', 'required', 'Indica qué documentos faltan (--missing)');
  }
}

/**
 * Applies a checked status change to the request locked in `tx`: the transition is checked (a paid request is final),
 * the row changes (its version grows), the history gets its line and the holder's e-mail is queued, all in `tx`.
 */
export async function applyStatusChange(
  tx: Database,
  row: repository.ClaimRow,
  change: StatusChange & { paidAmountClp?: number | undefined },
  by: ClaimChanger,
  at: Date,
) {
  const from = row.status as RefundStatus;
  if (!refundTransitions[from].includes(change.status)) {
    throw badChange(
      'status',
      'invalid_transition',
      `Una solicitud «${refundStatuses[from]}» no puede pasar a «${refundStatuses[change.status]}»`,
    );
  }
  const message = change.message?.trim() || null;
  await repository.updateStatus(tx, row.id, {
    status: change.status,
    approvedAmount:
      change.status === 'aprobada'
        ? (change.amount ?? 0).toFixed(2)
        : change.status === 'pagada'
          ? row.approvedAmount
          : null,
    rejectionReason: change.status === 'rechazada' ? (change.reason?.trim() ?? null) : null,
    missingDocuments: change.status === 'faltan_documentos' ? (change.missing?.trim() ?? null) : null,
    ...(change.paidAmountClp === undefined ? {} : { paidAmountClp: change.paidAmountClp }),
  });
  await repository.insertEvent(tx, {
    requestId: row.id,
    kind: change.status === 'pagada' && change.paidAmountClp !== undefined ? 'payment' : 'status',
    at,
    actorLabel: by.label,
    actorOperatorId: by.operatorId ?? null,
    fromStatus: from,
    toStatus: change.status,
    text: message,
  });
  await enqueue(tx, claimEmailKind, {
    requestId: row.id,
    message: 'status',
    status: change.status,
    ...(message ? { note: message } : {}),
  });
  return { number: row.number, from, to: change.status };
}

/**
 * The operator's status change by the CLI or the admin API (the console has its own, console.ts, with versions and
 * the audit trail): checked (checkStatusChange, then the transition under the row's lock) and the holder e-mailed in
 * the same transaction. Throws ApiError 404 for an unknown number, 400 for a bad change.
 */
export async function changeStatus(
  db: Database,
  number: string,
  change: StatusChange,
  by: ClaimChanger = { label: 'cli' },
  /** Written in the change's transaction: the admin API's audit row of a call by API key. */
  audit?: (tx: Database, change: { number: string; from: RefundStatus; to: RefundStatus }, at: Date) => Promise<void>,
) {
  const normalised = normaliseRequestNumber(number);
  const found = normalised ? await repository.findRequestByNumber(db, normalised) : undefined;
  if (!found) throw resourceNotFound();
  checkStatusChange(found, change);
  return db.transaction(async (tx) => {
    const row = await repository.lockRequest(tx, found.id);
    if (!row) throw resourceNotFound();
    const at = new Date();
    const result = await applyStatusChange(tx, row, change, by, at);
    await audit?.(tx, result, at);
    return result;
  });
}

/**
 * The documents of a request with a reader of each one's bytes from the document store (the operator's export;
 * tests read them back).
 */
export async function claimDocuments(db: Database, store: DocumentStore, number: string) {
  const normalised = normaliseRequestNumber(number);
  const row = normalised ? await repository.findRequestByNumber(db, normalised) : undefined;
  if (!row) throw resourceNotFound();
  const files = await repository.listStoredFiles(db, row.id);
  return files.map((file) => ({ ...file, open: () => store.get(file.storageKey) }));
}

// ─── E-mails ───────────────────────────────────────────────────────────────────────────────────────────────────────

const refundEmailPayload = z.object({
  requestId: z.number().int().positive(),
  message: z.enum(['received-holder', 'received-company', 'status', 'documents-added']),
  status: z.enum(Object.keys(refundStatuses) as [RefundStatus, ...RefundStatus[]]).optional(),
  count: z.number().int().optional(),
  /** The operator's words for the holder, added to a status e-mail. */
  note: z.string().max(4000).optional(),
});
type RefundEmailPayload = z.infer<typeof refundEmailPayload>;

/** The HTML part: the text's paragraphs in the store's layout, its links (the claim's page) as links. */
const paragraphs = (text: string): EmailBlock[] =>
  text.split('\n\n').map((p) => {
    // A one-line paragraph with a link in it (the tracking page): the link is a link.
    const url = p.includes('\n') ? null : /https?:\/\/[^\s]*[^\s.,;:)]/.exec(p);
    if (!url) return { type: 'text', text: p };
    const [href] = url;
    return { type: 'link', before: p.slice(0, url.index), href, label: href, after: p.slice(url.index + href.length) };
  });

/** Where the company's people handle a claim: its page in the console, and the CLI's export of its documents. */
function handlingText(row: repository.ClaimRow, settings: ClaimMailSettings) {
  const page = settings.consoleUrl
    ? `En la consola: ${settings.consoleUrl}/backoffice/reembolsos/${encodeURIComponent(row.number)}\n`
    : '';
  return `${page}Para descargarlos: npm run refunds -- files ${row.number} <carpeta>`;
}

/** The company's address for refund requests: configured, else the refunds entry of its contact directory. */
async function companyAddress(db: Database, companyId: number, settings: ClaimMailSettings) {
  if (settings.notifyEmail) return settings.notifyEmail;
  const contacts = await listContacts(db, companyId, false);
  const refunds = contacts.find((c) => c.url?.href === '/reembolsos' || /reembolso/i.test(c.category));
  const address = refunds?.emails[0]?.email ?? contacts.flatMap((c) => c.emails)[0]?.email;
  if (!address) throw new Error('The company has no contact address for refund requests');
  return address;
}

function trackingText(row: repository.ClaimRow, settings: ClaimMailSettings) {
  const path = `/reembolsos/seguimiento?numero=${encodeURIComponent(row.number)}`;
  const where = settings.publicUrl
    ? `${settings.publicUrl}${path}`
    : `la sección Reembolsos → Seguimiento de nuestro sitio (${path})`;
  return `Puedes seguir tu solicitud en ${where} con el número ${row.number} y tu número de documento.`;
}

function statusText(row: repository.ClaimRow, status: RefundStatus) {
  const currency = row.currency as RefundCurrency;
  switch (status) {
    case 'aprobada':
      return `Tu solicitud fue aprobada por ${formatRefundAmount(Number(row.approvedAmount ?? 0), currency)}. Te transferiremos ese monto a la cuenta que indicaste.`;
    case 'rechazada':
      return `Tu solicitud fue rechazada. Motivo: ${row.rejectionReason ?? ''}`;
    case 'faltan_documentos':
      return `Para continuar necesitamos estos documentos: ${row.missingDocuments ?? ''}\n\nPuedes adjuntarlos en la página de seguimiento.`;
    case 'pagada':
      return row.paidAmountClp !== null
        ? `Transferimos ${formatRefundAmount(row.paidAmountClp, 'CLP')} a tu cuenta.`
        : `Transferimos ${formatRefundAmount(Number(row.approvedAmount ?? row.amount), currency)} a tu cuenta.`;
    case 'en_revision':
      return 'Estamos revisando tu solicitud.';
    default:
      return 'Recibimos tu solicitud.';
  }
}

/**
 * The holder's e-mails carry no text the sender chose (not the name, not the description): anyone may type any
 * address in the form, so echoing free text would let them mail their words from our domain. Only the request
 * number, the amount, the status and the operator's words go to the holder; the company's e-mail keeps the details.
 */
async function sendRefundEmail(db: Database, mailer: Mailer, settings: ClaimMailSettings, p: RefundEmailPayload) {
  const row = await repository.findRequestById(db, p.requestId);
  if (!row) return 0;
  const company = await getCompanyInfo(db, row.companyId);
  const currency = row.currency as RefundCurrency;
  const claimed = formatRefundAmount(Number(row.amount), currency);
  let to: string;
  let subject: string;
  let text: string;
  if (p.message === 'received-holder') {
    to = row.email;
    subject = `Recibimos tu solicitud de reembolso ${row.number}`;
    text = `Hola:\n\nRecibimos tu solicitud de reembolso por ${claimed}. Su número es ${row.number}.\n\n${trackingText(row, settings)}\n\nSaludos,\n${company.name}`;
  } else if (p.message === 'received-company') {
    to = await companyAddress(db, row.companyId, settings);
    const files = await repository.listFiles(db, row.id);
    subject = `Nueva solicitud de reembolso ${row.number}`;
    text = [
      `Solicitud: ${row.number}`,
      `Titular: ${row.holderName}`,
      `Documento: ${holderDocumentTypes[row.documentType as DocumentTypeId] ?? row.documentType} ${row.documentNumber}`,
      `E-mail: ${row.email}`,
      `Teléfono: ${row.phone}`,
      `Certificado o venta: ${row.certificateNumber}`,
      `Fecha del incidente: ${row.incidentDate}`,
      `Monto solicitado: ${claimed} (${currency})`,
      `Cuenta: ${bankName(row.bankCode)}, ${accountTypes[row.accountType as keyof typeof accountTypes] ?? row.accountType} N° ${row.accountNumber}`,
      '',
      'Qué pasó:',
      row.description,
      '',
      `Documentos (${files.length}): ${files.map((f) => `${f.fileName} (${f.contentType}, ${f.size} bytes)`).join('; ')}`,
      handlingText(row, settings),
    ].join('\n');
  } else if (p.message === 'documents-added') {
    to = await companyAddress(db, row.companyId, settings);
    subject = `Solicitud de reembolso ${row.number}: el titular adjuntó documentos`;
    text = `El titular de la solicitud ${row.number} adjuntó ${p.count ?? 0} documento(s); la solicitud volvió a «En revisión».\n\n${handlingText(row, settings)}`;
  } else {
    const status = p.status ?? (row.status as RefundStatus);
    to = row.email;
    subject = `Tu solicitud de reembolso ${row.number}: ${refundStatuses[status]}`;
    const note = p.note ? `\n\n${p.note}` : '';
    text = `Hola:\n\n${statusText(row, status)}${note}\n\n${trackingText(row, settings)}\n\nSaludos,\n${company.name}`;
  }
  const html = await emailHtml({ brand: company.name, title: subject, preview: subject, blocks: paragraphs(text) });
  await mailer.send({ to: [to], subject, text, html, attachments: [] });
  return 1;
}

/** The refund e-mail job (to the holder or to the company); at least once, like every job of the queue. */
export function claimEmailJob(
  db: Database,
  mailer: Mailer,
  settings: ClaimMailSettings,
): JobHandler<RefundEmailPayload> {
  return {
    payload: refundEmailPayload,
    logFields: ({ requestId, message }) => ({ requestId, message }),
    errorFields: (error: unknown): LogFields => {
      const { code, causeCode, type } = loggableError(error);
      return { errorType: type, code, causeCode };
    },
    async run(payload) {
      const sent = await sendRefundEmail(db, mailer, settings, payload);
      return { sent, destination: mailer.destination };
    },
  };
}
export { countClaimsWaiting } from './repository.ts';
