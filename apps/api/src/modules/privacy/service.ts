import { and, desc, eq, ne } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Database } from '#app/db/client.ts';
import { ApiError, resourceNotFound } from '#app/errors.ts';
import type { DocumentStore } from '#app/integrations/document-store/index.ts';
import type { Person } from '#app/lib/personal-data.ts';
import { type AuditActor, recordAudit } from '../audit/service.ts';
import { brand, muted, PdfWriter } from '../certificates/pdf.ts';
import { documentSearchKey, emailSearchKey } from '../certificates/repository.ts';
import { salesOfHolder } from '../certificates/service.ts';
import { anonymiseClosedClaims, anonymiseClosedClaimsBefore, claimsOfPerson } from '../claims/personal-data.ts';
import {
  anonymiseContactRequests,
  anonymiseContactRequestsBefore,
  contactRequestsOfEmail,
  rectifyContactRequest,
} from '../contact/personal-data.ts';
import { salesOfPerson } from '../payments/personal-data.ts';
import { quotationsOfPerson } from '../quotations/personal-data.ts';
import { deleteSubscriptions, rectifySubscriptionEmail, subscriptionsOfEmail } from '../subscriptions/personal-data.ts';
import { type personalDataRequestKinds, personalDataRequests } from './tables.ts';

export { anonymised } from '#app/lib/personal-data.ts';

/**
 * Screen 7 of the console (issue 24), «Datos personales»: what the store holds about a person (Ley 19.628, Ley
 * 21.719), its export (JSON, PDF), the anonymisation of what the law does not oblige the insurer to keep, and the
 * register of the requests and their answers. Sales, certificates and payment/tax records are kept for their legal
 * period; contact requests, newsletter subscriptions and closed claims' personal fields can be anonymised.
 */

/** What the answer of an erasure says about what is kept (and the PDF prints). */
export const keptNotice =
  'Las ventas, los certificados y los registros de pago y tributarios se conservan durante el plazo legal (obligaciones del asegurador y tributarias); no se anonimizan.';

export type PersonalDataRequest = typeof personalDataRequests.$inferSelect;
export type PersonalDataRequestKind = (typeof personalDataRequestKinds)[number];

export function personOf(q: string): Person {
  const text = q.trim();
  if (text.includes('@')) return { email: emailSearchKey(text) };
  const key = documentSearchKey(text);
  if (key.length < 3) {
    const message = 'Escribe un RUT, DNI, pasaporte o correo.';
    throw new ApiError(400, message, [{ field: 'q', code: 'invalid', message }]);
  }
  return { document: key };
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Everything held about the person, grouped by source (the console's summary and the export's content). */
export async function findPersonalData(db: Database, companyId: number, person: Person) {
  const saleRows = await salesOfPerson(db, companyId, salesOfHolder(db, companyId, person));
  const quotationRows = await quotationsOfPerson(db, companyId, person);
  const claimRows = await claimsOfPerson(db, companyId, person);
  const contactRows = 'email' in person ? await contactRequestsOfEmail(db, companyId, person.email) : [];
  const subscriptionRows = 'email' in person ? await subscriptionsOfEmail(db, companyId, person.email) : [];
  return {
    person,
    sales: saleRows.map((sale) => ({
      id: sale.id,
      status: sale.status,
      createdAt: sale.createdAt.toISOString(),
      href: `/backoffice/ventas/${sale.id}`,
      purchase: sale.purchase,
      kept: true,
    })),
    quotations: quotationRows.map((q) => ({ ...q, createdAt: q.createdAt.toISOString() })),
    claims: claimRows.map((claim) => ({
      id: claim.id,
      number: claim.number,
      status: claim.status,
      closed: claim.closed,
      holderName: claim.holderName,
      documentNumber: claim.documentNumber,
      email: claim.email,
      phone: claim.phone,
      certificateNumber: claim.certificateNumber,
      description: claim.description,
      incidentDate: claim.incidentDate,
      amount: claim.amount,
      currency: claim.currency,
      createdAt: claim.createdAt.toISOString(),
      documents: claim.documents,
    })),
    contactRequests: contactRows.map((row) => ({
      id: row.id,
      subject: row.subjectLabel,
      fullName: row.fullName,
      email: row.email,
      phone: row.phone,
      detail: row.detail,
      createdAt: row.createdAt.toISOString(),
    })),
    subscriptions: subscriptionRows.map((row) => ({
      id: row.id,
      email: row.email,
      createdAt: row.createdAt.toISOString(),
      confirmedAt: iso(row.confirmedAt),
    })),
  };
}

export type PersonalData = Awaited<ReturnType<typeof findPersonalData>>;

/** The summary the console shows first: counts and ids per source. */
export function summaryOf(data: PersonalData) {
  return {
    sales: { count: data.sales.length, ids: data.sales.map((s) => s.id) },
    quotations: { count: data.quotations.length, ids: data.quotations.map((q) => q.id) },
    claims: { count: data.claims.length, ids: data.claims.map((c) => c.id) },
    contactRequests: { count: data.contactRequests.length, ids: data.contactRequests.map((c) => c.id) },
    subscriptions: { count: data.subscriptions.length, ids: data.subscriptions.map((s) => s.id) },
  };
}

/** The readable export: one section per source, in Spanish. */
export async function personalDataPdf(data: PersonalData, subject: string, at: Date): Promise<Uint8Array> {
  const document = await PDFDocument.create({ updateMetadata: false });
  document.setTitle('Datos personales');
  document.setLanguage('es-CL');
  document.setCreationDate(at);
  const fonts = {
    regular: await document.embedFont(StandardFonts.Helvetica),
    bold: await document.embedFont(StandardFonts.HelveticaBold),
  };
  const writer = new PdfWriter(document, document.addPage([595.28, 841.89]), fonts);
  writer.banner('Travesía · Datos personales', `Titular: ${subject}`);
  writer.text(`Datos personales de ${subject}`, { size: 16, bold: true, color: brand });
  writer.text(`Generado el ${at.toISOString().slice(0, 10).split('-').reverse().join('-')}.`, { color: muted });
  writer.gap(6);
  writer.heading(`Ventas (${data.sales.length})`);
  for (const sale of data.sales) {
    writer.text(`Venta ${sale.id} · ${sale.status} · ${sale.createdAt.slice(0, 10)}`);
    for (const t of sale.purchase?.travellers ?? []) {
      writer.text(`• ${t.firstName} ${t.lastName} · ${t.documentNumber} · ${t.email}`, {
        x: 60,
        width: 485,
      });
    }
  }
  writer.heading(`Cotizaciones (${data.quotations.length})`);
  for (const q of data.quotations) {
    writer.text(`${[q.firstName, q.lastName].filter(Boolean).join(' ')} · ${q.email ?? ''} · ${q.rut ?? ''}`);
  }
  writer.heading(`Reembolsos (${data.claims.length})`);
  for (const claim of data.claims) {
    writer.text(`${claim.number} · ${claim.status} · ${claim.holderName} · ${claim.email} · ${claim.phone}`);
    writer.text(claim.description, { x: 60, width: 485, color: muted });
  }
  writer.heading(`Solicitudes de contacto (${data.contactRequests.length})`);
  for (const row of data.contactRequests) {
    writer.text(`${row.createdAt.slice(0, 10)} · ${row.fullName} · ${row.email} · ${row.phone} · ${row.subject}`);
    writer.text(row.detail, { x: 60, width: 485, color: muted });
  }
  writer.heading(`Boletín (${data.subscriptions.length})`);
  for (const row of data.subscriptions) {
    writer.text(`${row.email} · ${row.confirmedAt ? 'confirmada' : 'sin confirmar'}`);
  }
  writer.gap(8);
  writer.text(keptNotice, { size: 8, color: muted });
  return document.save();
}

/** An export (JSON or PDF) recorded in the audit trail: who exported whose data, and what it held. */
export async function recordExport(
  db: Database,
  actor: AuditActor,
  subject: string,
  format: 'json' | 'pdf',
  data: PersonalData,
  at: Date,
) {
  await recordAudit(
    db,
    actor,
    {
      action: 'privacy.export',
      targetType: 'person',
      targetId: subject,
      before: null,
      after: { format, summary: summaryOf(data) },
    },
    at,
  );
}

/** The register's rows, newest first. */
export async function listRequests(db: Database, companyId: number, limit = 100) {
  const rows = await db
    .select()
    .from(personalDataRequests)
    .where(eq(personalDataRequests.companyId, companyId))
    .orderBy(desc(personalDataRequests.id))
    .limit(limit);
  return rows.map(requestView);
}

export function requestView(row: PersonalDataRequest) {
  return {
    id: row.id,
    subject: row.subject,
    kind: row.kind,
    state: row.state,
    openedBy: row.openedBy,
    handledBy: row.handledBy,
    answer: row.answer,
    createdAt: row.createdAt.toISOString(),
    answeredAt: iso(row.answeredAt),
  };
}

export async function openRequest(
  db: Database,
  companyId: number,
  actor: AuditActor,
  input: { subject: string; kind: PersonalDataRequestKind },
  at: Date,
) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(personalDataRequests)
      .values({ companyId, subject: input.subject.trim(), kind: input.kind, openedBy: actor.label, createdAt: at })
      .returning();
    if (!row) throw new Error('insert returned no row');
    const view = requestView(row);
    await recordAudit(
      tx,
      actor,
      { action: 'privacy.request.open', targetType: 'personal_data_request', targetId: String(row.id), after: view },
      at,
    );
    return view;
  });
}

export async function answerRequest(
  db: Database,
  companyId: number,
  actor: AuditActor,
  id: number,
  answer: string,
  at: Date,
) {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(personalDataRequests)
      .where(and(eq(personalDataRequests.id, id), eq(personalDataRequests.companyId, companyId)))
      .for('update');
    if (!before) throw resourceNotFound();
    if (before.state === 'answered') throw new ApiError(409, 'La solicitud ya fue respondida.');
    const [after] = await tx
      .update(personalDataRequests)
      .set({ state: 'answered', answer: answer.trim(), handledBy: actor.label, answeredAt: at })
      .where(eq(personalDataRequests.id, id))
      .returning();
    if (!after) throw resourceNotFound();
    await recordAudit(
      tx,
      actor,
      {
        action: 'privacy.request.answer',
        targetType: 'personal_data_request',
        targetId: String(id),
        before: requestView(before),
        after: requestView(after),
      },
      at,
    );
    return requestView(after);
  });
}

/**
 * Anonymises what is held about the person that the law does not oblige the insurer to keep: their contact requests,
 * newsletter subscriptions, and closed claims' personal fields (their documents deleted from the store). Sales,
 * certificates and payment records are kept. One audit row with what was changed; when `requestId` names an open
 * erasure request, it is answered in the same transaction.
 */
export async function erasePersonalData(
  db: Database,
  store: DocumentStore,
  companyId: number,
  actor: AuditActor,
  input: { subject: string; requestId?: number },
  at: Date,
) {
  const person = personOf(input.subject);
  const { result, keys } = await db.transaction(async (tx) => {
    const before = await findPersonalData(tx, companyId, person);
    const contactIds = before.contactRequests.map((c) => c.id);
    const subscriptionIds = before.subscriptions.map((s) => s.id);
    const claimIds = before.claims.filter((c) => c.closed).map((c) => c.id);
    await anonymiseContactRequests(tx, contactIds);
    await deleteSubscriptions(tx, subscriptionIds);
    const removed = await anonymiseClosedClaims(tx, claimIds);
    const answer = `Anonimizamos ${contactIds.length} solicitud(es) de contacto, ${subscriptionIds.length} suscripción(es) al boletín y ${claimIds.length} reembolso(s) cerrado(s). ${keptNotice}${before.claims.length > claimIds.length ? ' Los reembolsos en curso se conservan hasta cerrarse.' : ''}`;
    let request: ReturnType<typeof requestView> | null = null;
    if (input.requestId !== undefined) {
      const [row] = await tx
        .update(personalDataRequests)
        .set({ state: 'answered', answer, handledBy: actor.label, answeredAt: at })
        .where(
          and(
            eq(personalDataRequests.id, input.requestId),
            eq(personalDataRequests.companyId, companyId),
            ne(personalDataRequests.state, 'answered'),
          ),
        )
        .returning();
      if (!row) throw new ApiError(409, 'La solicitud no existe o ya fue respondida.');
      request = requestView(row);
    }
    const after = {
      contactRequests: contactIds,
      subscriptions: subscriptionIds,
      claims: claimIds,
      documentsDeleted: removed.length,
      keptSales: before.sales.map((s) => s.id),
      request,
    };
    await recordAudit(
      tx,
      actor,
      {
        action: 'privacy.erase',
        targetType: 'person',
        targetId: input.subject.trim(),
        before: summaryOf(before),
        after,
      },
      at,
    );
    return { result: { ...after, answer }, keys: removed };
  });
  for (const key of keys) await store.delete(key);
  return result;
}

export type Rectification =
  | { source: 'contact'; id: number; fullName?: string | undefined; email?: string | undefined }
  | { source: 'subscription'; id: number; email: string };

/**
 * A rectification of what only the privacy screen can correct (a traveller of a sale is corrected on the sale's page):
 * a contact request's name or e-mail, a newsletter subscription's address. One `privacy.rectify` audit row.
 */
export async function rectifyPersonalData(
  db: Database,
  companyId: number,
  actor: AuditActor,
  input: Rectification,
  at: Date,
) {
  return db.transaction(async (tx) => {
    const email = input.email ? emailSearchKey(input.email) : undefined;
    let changed: { before: unknown; after: { email: string; fullName?: string } } | undefined;
    if (input.source === 'contact') {
      if (!input.fullName && !email) {
        const message = 'Escribe el nombre o el correo corregido.';
        throw new ApiError(400, message, [{ field: 'fullName', code: 'required', message }]);
      }
      const rows = await rectifyContactRequest(tx, companyId, input.id, { fullName: input.fullName?.trim(), email });
      if (rows) {
        const view = (row: typeof rows.before) => ({ id: row.id, fullName: row.fullName, email: row.email });
        changed = { before: view(rows.before), after: view(rows.after) };
      }
    } else {
      const rows = await rectifySubscriptionEmail(tx, companyId, input.id, email ?? '');
      if (rows === 'taken') {
        const message = 'Ese correo ya está suscrito al boletín.';
        throw new ApiError(409, message, [{ field: 'email', code: 'duplicate', message }]);
      }
      changed = rows;
    }
    if (!changed) throw resourceNotFound();
    await recordAudit(
      tx,
      actor,
      {
        action: 'privacy.rectify',
        targetType: input.source === 'contact' ? 'contact_request' : 'subscription',
        targetId: String(input.id),
        before: changed.before,
        after: changed.after,
      },
      at,
    );
    return { source: input.source, id: input.id, ...changed.after };
  });
}

/** The retention rule's settings (config.ts `retention`). */
export type RetentionSettings = { contactMonths: number; claimsMonths: number };

const monthsBefore = (at: Date, months: number) => {
  const date = new Date(at);
  date.setUTCMonth(date.getUTCMonth() - months);
  return date;
};

/**
 * The periodic retention (worker): contact requests older than `contactMonths` and closed claims not updated for
 * `claimsMonths` are anonymised, their documents deleted. Only closed contact requests (answered or
 * handled) go: contact's anonymiseContactRequestsBefore.
 */
export async function applyRetention(db: Database, store: DocumentStore, settings: RetentionSettings, at: Date) {
  const contactBefore = monthsBefore(at, settings.contactMonths);
  const claimsBefore = monthsBefore(at, settings.claimsMonths);
  const { counts, keys } = await db.transaction(async (tx) => {
    const contacts = await anonymiseContactRequestsBefore(tx, contactBefore);
    const claims = await anonymiseClosedClaimsBefore(tx, claimsBefore);
    if (contacts.length || claims.ids.length) {
      await recordAudit(
        tx,
        { label: 'retention', ip: null },
        {
          action: 'privacy.retention',
          targetType: 'retention',
          before: { contactBefore: contactBefore.toISOString(), claimsBefore: claimsBefore.toISOString() },
          after: { contactRequests: contacts.map((c) => c.id), claims: claims.ids },
        },
        at,
      );
    }
    return {
      counts: { contactRequests: contacts.length, claims: claims.ids.length },
      keys: claims.keys,
    };
  });
  for (const key of keys) await store.delete(key);
  return counts;
}
