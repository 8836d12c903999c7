import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { DocumentTypeId } from '@travesia/domain/ids';
import { errorMessages } from '@travesia/domain/messages';
import {
  accountTypes,
  bankName,
  holderDocumentTypes,
  normaliseRequestNumber,
  type RefundCurrency,
  type RefundStatus,
  refundStatuses,
  refundTransitions,
} from '@travesia/domain/refunds';
import type { Database } from '#app/db/client.ts';
import { ApiError, resourceNotFound } from '#app/errors.ts';
import { DocumentNotFoundError, type DocumentStore } from '#app/integrations/document-store/index.ts';
import { type AuditActor, recordAudit } from '../audit/service.ts';
import * as repository from './repository.ts';
import { applyStatusChange, checkStatusChange, type StatusChange } from './service.ts';

/**
 * The claims screen of the operator console (issue 24, «Reembolsos»): the inbox, a claim's page, and the operators'
 * actions on it. Each action is one transaction holding the change, its line in the claim's history and exactly one
 * audit row with the claim before and after; it names the version it read, so of two operators acting on one claim
 * at once one wins and the other is answered 409 in words. Status changes go through service.ts's
 * applyStatusChange, the same the CLI and the admin API use, and e-mail the holder through the job queue.
 */

const day = 24 * 60 * 60 * 1000;

export const consoleMessages = {
  stale:
    'Otro operador cambió este reembolso mientras lo mirabas. Recarga la página, revisa su estado actual y vuelve a intentarlo.',
  paidByPayment: 'Un reembolso se marca «Pagada» registrando el pago (rol Finanzas), con el monto transferido.',
  notApproved: 'Solo un reembolso «Aprobada» puede registrarse como pagado.',
  overApproved: (approved: string) =>
    `El monto pagado no puede superar el aprobado (${approved}). Si corresponde pagar más, cambia primero el monto aprobado.`,
  noOperator: 'Solo un operador con sesión puede asignarse un reembolso o filtrar «asignados a mí».',
  linkExpired: 'El enlace del documento venció. Recarga la página del reembolso para ver el documento.',
} as const;

const amountOf = (value: string | null) => (value === null ? null : Number(value));
const waitingDays = (since: Date, now: Date) => Math.max(0, Math.floor((now.getTime() - since.getTime()) / day));

export type InboxQuery = {
  status?: RefundStatus | 'waiting' | undefined;
  assigned?: 'me' | 'unassigned' | undefined;
  /** Only claims received at least this many days ago. */
  olderThanDays?: number | undefined;
  cursor?: number | undefined;
};

export const inboxPageSize = 50;

/** The inbox: the claims matching the filters, those waiting longest first, a page at a time (keyset on the id). */
export async function claimInbox(db: Database, actor: AuditActor, query: InboxQuery, now: Date) {
  if (query.assigned === 'me' && !actor.operatorId) {
    throw new ApiError(400, errorMessages.invalidInputParameters, [
      { field: 'assigned', code: 'invalid', message: consoleMessages.noOperator },
    ]);
  }
  const rows = await repository.searchRequests(
    db,
    {
      statuses: query.status === 'waiting' ? repository.waitingStatuses : query.status ? [query.status] : undefined,
      assignedTo: query.assigned === 'me' ? (actor.operatorId ?? undefined) : query.assigned ? null : undefined,
      receivedBefore: query.olderThanDays ? new Date(now.getTime() - query.olderThanDays * day) : undefined,
      after: query.cursor,
    },
    inboxPageSize + 1,
  );
  const page = rows.slice(0, inboxPageSize);
  return {
    claims: page.map((row) => ({
      number: row.number,
      status: row.status as RefundStatus,
      statusText: refundStatuses[row.status as RefundStatus],
      holderName: row.holderName,
      certificateNumber: row.certificateNumber,
      amount: Number(row.amount),
      currency: row.currency as RefundCurrency,
      assignedTo: row.assignedOperatorLabel,
      receivedAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      waitingDays: waitingDays(row.createdAt, now),
    })),
    nextCursor: rows.length > inboxPageSize ? String(page.at(-1)?.id) : null,
  };
}

// ─── Signed links to documents ─────────────────────────────────────────────────────────────────────────────────────

/** How long a document link of a claim's page serves: a few minutes, the page is reloaded for a new one. */
export const documentLinkTtlMs = 5 * 60 * 1000;

const linkKeys = new Map<string, Buffer>();
function linkKey(secretsKey: string): Buffer {
  let key = linkKeys.get(secretsKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', Buffer.from(secretsKey, 'utf8'), 'travesia-claims', 'document-link', 32));
    linkKeys.set(secretsKey, key);
  }
  return key;
}

const linkSignature = (secretsKey: string, fileId: number, expires: number) =>
  createHmac('sha256', linkKey(secretsKey)).update(`claim-document:${fileId}:${expires}`).digest('base64url');

/** The console API's path of a claim document, signed (HMAC of its id and expiry, in seconds) for a few minutes. */
export function documentLink(secretsKey: string, fileId: number, now: Date): { url: string; expiresAt: string } {
  const expires = Math.floor((now.getTime() + documentLinkTtlMs) / 1000);
  const signature = linkSignature(secretsKey, fileId, expires);
  return {
    url: `/api/backoffice/claim-documents/${fileId}?expires=${expires}&signature=${signature}`,
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}

/** The types a document is ever served as (found in its content at upload), and the extension its name gets. */
export const servedDocumentTypes: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
};

/**
 * The document a signed link names, with a reader of its bytes: a signature that does not match (a changed id,
 * expiry or signature) is the 404 of an unknown document; a genuine link past its expiry is a 403 in words.
 */
export async function openSignedDocument(
  db: Database,
  store: DocumentStore,
  secretsKey: string,
  link: { fileId: number; expires: number; signature: string },
  now: Date,
) {
  const expected = Buffer.from(linkSignature(secretsKey, link.fileId, link.expires));
  const given = Buffer.from(link.signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw resourceNotFound();
  if (link.expires * 1000 < now.getTime()) throw new ApiError(403, consoleMessages.linkExpired);
  const file = await repository.findStoredFile(db, link.fileId);
  const extension = file ? servedDocumentTypes[file.contentType] : undefined;
  if (!file || !extension) throw resourceNotFound();
  return {
    ...file,
    extension,
    /** The bytes as a stream; a document gone from the store is the 404 of an unknown one. */
    open: () =>
      store.get(file.storageKey).catch((error: unknown) => {
        throw error instanceof DocumentNotFoundError ? resourceNotFound() : error;
      }),
  };
}

// ─── A claim's page ────────────────────────────────────────────────────────────────────────────────────────────────

async function requireClaim(db: Database, number: string) {
  const normalised = normaliseRequestNumber(number);
  const row = normalised ? await repository.findRequestByNumber(db, normalised) : undefined;
  if (!row) throw resourceNotFound();
  return row;
}

/** Everything the claim's page shows: claimant, certificate, incident, documents (signed links), amounts, history. */
export async function claimDetail(db: Database, secretsKey: string, number: string, now: Date) {
  const row = await requireClaim(db, number);
  const [files, events] = await Promise.all([repository.listFiles(db, row.id), repository.listEvents(db, row.id)]);
  const status = row.status as RefundStatus;
  const eventView = (event: repository.ClaimEvent) => ({
    id: event.id,
    kind: event.kind,
    at: event.at.toISOString(),
    by: event.actorLabel,
    from: event.fromStatus,
    to: event.toStatus,
    text: event.text,
  });
  return {
    number: row.number,
    version: row.version,
    status,
    statusText: refundStatuses[status],
    /** The statuses the claim may move to by «Cambiar estado» («Pagada» is finance's «Registrar pago»). */
    nextStatuses: refundTransitions[status].filter((next) => next !== 'pagada'),
    canRecordPayment: status === 'aprobada',
    receivedAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    waitingDays: waitingDays(row.createdAt, now),
    assignedTo: row.assignedOperatorId
      ? { operatorId: row.assignedOperatorId, label: row.assignedOperatorLabel ?? '' }
      : null,
    claimant: {
      name: row.holderName,
      documentType: holderDocumentTypes[row.documentType as DocumentTypeId] ?? String(row.documentType),
      documentNumber: row.documentNumber,
      email: row.email,
      phone: row.phone,
      bank: bankName(row.bankCode),
      accountType: accountTypes[row.accountType as keyof typeof accountTypes] ?? row.accountType,
      accountNumber: row.accountNumber,
    },
    certificateNumber: row.certificateNumber,
    incident: { date: row.incidentDate, description: row.description },
    amounts: {
      currency: row.currency as RefundCurrency,
      claimed: Number(row.amount),
      approved: amountOf(row.approvedAmount),
      paidClp: row.paidAmountClp,
    },
    missingDocuments: row.missingDocuments,
    rejectionReason: row.rejectionReason,
    documents: files.map((file) => ({
      id: file.id,
      name: file.fileName,
      type: file.contentType,
      size: file.size,
      uploadedAt: file.createdAt.toISOString(),
      link: documentLink(secretsKey, file.id, now),
    })),
    history: events.filter((event) => event.kind !== 'note').map(eventView),
    notes: events.filter((event) => event.kind === 'note').map(eventView),
  };
}

// ─── Actions ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** The claim as the audit trail records it before and after an action. */
const auditView = (row: repository.ClaimRow) => ({
  status: row.status,
  approvedAmount: amountOf(row.approvedAmount),
  paidAmountClp: row.paidAmountClp,
  missingDocuments: row.missingDocuments,
  rejectionReason: row.rejectionReason,
  assignedTo: row.assignedOperatorLabel,
  version: row.version,
});

const changerOf = (actor: AuditActor) => ({ label: actor.label, operatorId: actor.operatorId ?? null });

/**
 * One console action on a claim: in one transaction, the row locked, the version the operator read compared (409
 * when another changed it first), the change, and one audit row with the claim before and after.
 */
async function actOnClaim(
  db: Database,
  actor: AuditActor,
  number: string,
  version: number,
  action: string,
  at: Date,
  change: (tx: Database, row: repository.ClaimRow) => Promise<void>,
) {
  const found = await requireClaim(db, number);
  return db.transaction(async (tx) => {
    const row = await repository.lockRequest(tx, found.id);
    if (!row) throw resourceNotFound();
    if (row.version !== version) {
      throw new ApiError(409, consoleMessages.stale, [
        { field: 'version', code: 'stale', message: consoleMessages.stale },
      ]);
    }
    await change(tx, row);
    const after = await repository.lockRequest(tx, row.id);
    if (!after) throw resourceNotFound();
    await recordAudit(
      tx,
      actor,
      { action, targetType: 'claim', targetId: row.number, before: auditView(row), after: auditView(after) },
      at,
    );
    return { number: after.number, version: after.version, status: after.status as RefundStatus };
  });
}

/** «Asignarme» (or «Soltar»): the operator takes the claim, or leaves it unassigned. */
export async function assignClaim(
  db: Database,
  actor: AuditActor,
  number: string,
  input: { version: number; to: 'me' | 'nobody' },
  at: Date,
) {
  if (input.to === 'me' && !actor.operatorId) {
    throw new ApiError(400, errorMessages.invalidInputParameters, [
      { field: 'to', code: 'invalid', message: consoleMessages.noOperator },
    ]);
  }
  return actOnClaim(db, actor, number, input.version, 'claim.assign', at, async (tx, row) => {
    const me = input.to === 'me';
    await repository.updateAssignee(tx, row.id, me ? (actor.operatorId ?? null) : null, me ? actor.label : null);
    await repository.insertEvent(tx, {
      requestId: row.id,
      kind: 'assign',
      at,
      actorLabel: actor.label,
      actorOperatorId: actor.operatorId ?? null,
      text: me ? actor.label : null,
    });
  });
}

/** «Cambiar estado» / «Faltan documentos»: any allowed status but «Pagada», with words e-mailed to the holder. */
export async function changeClaimStatus(
  db: Database,
  actor: AuditActor,
  number: string,
  input: StatusChange & { version: number },
  at: Date,
) {
  if (input.status === 'pagada') {
    throw new ApiError(400, errorMessages.invalidInputParameters, [
      { field: 'status', code: 'invalid_transition', message: consoleMessages.paidByPayment },
    ]);
  }
  return actOnClaim(db, actor, number, input.version, 'claim.status', at, async (tx, row) => {
    checkStatusChange(row, input);
    await applyStatusChange(tx, row, input, changerOf(actor), at);
  });
}

/** Finance's «Registrar pago»: an approved claim becomes «Pagada» with the pesos transferred; the holder is told. */
export async function recordClaimPayment(
  db: Database,
  actor: AuditActor,
  number: string,
  input: { version: number; paidAmountClp: number; message?: string | undefined },
  at: Date,
) {
  return actOnClaim(db, actor, number, input.version, 'claim.payment', at, async (tx, row) => {
    if (row.status !== 'aprobada') {
      throw new ApiError(400, errorMessages.invalidInputParameters, [
        { field: 'paidAmountClp', code: 'invalid_transition', message: consoleMessages.notApproved },
      ]);
    }
    // A claim approved in pesos is paid at most what was approved (a typo of one zero is a peso lost); one approved
    // in dollars is paid in pesos at the day's rate, which the insurer's transfer decides.
    if (row.currency === 'CLP' && row.approvedAmount !== null && input.paidAmountClp > Number(row.approvedAmount)) {
      const approved = `$${Number(row.approvedAmount).toLocaleString('es-CL')}`;
      throw new ApiError(400, errorMessages.invalidInputParameters, [
        { field: 'paidAmountClp', code: 'out_of_range', message: consoleMessages.overApproved(approved) },
      ]);
    }
    await applyStatusChange(
      tx,
      row,
      { status: 'pagada', paidAmountClp: input.paidAmountClp, message: input.message },
      changerOf(actor),
      at,
    );
  });
}

/** An internal note: in the claim's page and the audit trail, never e-mailed. Notes add up: no version needed. */
export async function addClaimNote(db: Database, actor: AuditActor, number: string, text: string, at: Date) {
  const found = await requireClaim(db, number);
  return db.transaction(async (tx) => {
    const row = await repository.lockRequest(tx, found.id);
    if (!row) throw resourceNotFound();
    const notes = await repository.countNotes(tx, row.id);
    await repository.insertEvent(tx, {
      requestId: row.id,
      kind: 'note',
      at,
      actorLabel: actor.label,
      actorOperatorId: actor.operatorId ?? null,
      text,
    });
    await recordAudit(
      tx,
      actor,
      {
        action: 'claim.note',
        targetType: 'claim',
        targetId: row.number,
        before: { notes },
        after: { notes: notes + 1, note: text },
      },
      at,
    );
    return { number: row.number, notes: notes + 1 };
  });
}
