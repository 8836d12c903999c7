import { randomInt } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, inArray } from 'drizzle-orm';
import { expect, it } from 'vitest';
import {
  auditEntries,
  contactRequests,
  personalDataRequests,
  quotations,
  refundFiles,
  refundRequests,
  sales,
  subscriptions,
} from '#app/db/schema.ts';
import { anonymised, applyRetention } from '#app/modules/privacy/service.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { freshHolders, type Holders, paidSaleOf } from './support/certificates.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call } from './support/http.ts';
import { pdfStrings } from './support/pdf-text.ts';

/**
 * The console's «Datos personales» (issue 24, screen 7): what is held about a person across sales, claims, contact
 * requests and the newsletter; its export; the anonymisation of what need not be kept; the register; the retention.
 */

const clock = new TestClock();
const monthMs = 31 * 24 * 3600 * 1000;

type Search = {
  summary: Record<string, { count: number; ids: (number | string)[] }>;
  sales: { id: number; href: string }[];
  claims: { id: number; closed: boolean }[];
  contactRequests: { id: number }[];
  subscriptions: { id: number }[];
};

/** A contact request, a newsletter subscription and a closed claim (with a stored document) of the holder. */
async function otherData(ctx: TestContext, holders: Holders, createdAt = clock.now()) {
  const db = ctx.database.db;
  const companyId = ctx.config.companyId;
  const email = holders.emails[0] ?? '';
  const [contact] = await db
    .insert(contactRequests)
    .values({
      companyId,
      subjectLabel: 'Ventas',
      fullName: 'Camila Rojas',
      email: email.toUpperCase(),
      phone: '+56911112222',
      detail: 'Quiero saber de mi póliza',
      recipient: 'contacto@travesia.cl',
      createdAt,
    })
    .returning();
  const [subscription] = await db.insert(subscriptions).values({ companyId, email, createdAt }).returning();
  const claimOf = async (status: string) => {
    const [claim] = await db
      .insert(refundRequests)
      .values({
        companyId,
        number: `R-${randomInt(1e8, 9e8)}`,
        status,
        holderName: 'Camila Rojas',
        documentType: 1,
        documentNumber: holders.rut.dotsAndDash,
        documentKey: holders.rut.plain,
        email,
        phone: '+56911112222',
        certificateNumber: 'TRV-1',
        description: 'Médico en Madrid',
        incidentDate: '2026-01-02',
        amount: '100.00',
        currency: 'USD',
        bankCode: '001',
        accountType: 'corriente',
        accountNumber: '123456',
        createdAt,
        updatedAt: createdAt,
      })
      .returning();
    if (!claim) throw new Error('no claim');
    return claim;
  };
  const closed = await claimOf('pagada');
  const open = await claimOf('en_revision');
  const storageKey = `refunds/test-${randomInt(1e9)}.pdf`;
  await ctx.app.documentStore.put(storageKey, Readable.from([Buffer.from('%PDF-1.4 boleta')]), 'application/pdf');
  await db
    .insert(refundFiles)
    .values({ requestId: closed.id, fileName: 'boleta.pdf', contentType: 'application/pdf', size: 15, storageKey });
  if (!contact || !subscription) throw new Error('no rows');
  return { contact, subscription, closed, open, storageKey };
}

describeOnEachDatabase(
  'Operator console: personal data',
  (ctx) => {
    let support: Operator;
    const supportOf = async () => {
      support ??= await enrolledOperator(ctx, `privacidad.${randomInt(1e6)}@travesia.cl`, ['support'], clock);
      return support;
    };

    it('finds a person by RUT in any form and by e-mail across sales, claims, contact requests and the newsletter', async () => {
      const operator = await supportOf();
      const holders = freshHolders();
      const { idVenta: saleId, quotationId } = await paidSaleOf(ctx, holders);
      const rows = await otherData(ctx, holders);
      // The buyer's data on the quotation, as typed (dots and dash, capitals).
      await ctx.database.db
        .update(quotations)
        .set({ rut: holders.rut.dotsAndDash, email: (holders.emails[0] ?? '').toUpperCase() })
        .where(eq(quotations.id, quotationId));
      for (const q of [holders.rut.dotsAndDash, holders.rut.plain]) {
        const answer = await asOperator(
          ctx,
          operator,
          'GET',
          `/api/backoffice/privacy/search?q=${encodeURIComponent(q)}`,
        );
        expect(answer.status, answer.text).toBe(200);
        const found = answer.json<Search>();
        expect(found.sales.map((s) => s.id)).toStrictEqual([saleId]);
        expect(found.sales[0]?.href).toBe(`/backoffice/ventas/${saleId}`);
        expect(found.summary.claims?.ids.sort()).toStrictEqual([rows.closed.id, rows.open.id].sort());
        expect(found.summary.quotations?.ids).toStrictEqual([quotationId]);
      }
      const byEmail = await asOperator(
        ctx,
        operator,
        'GET',
        `/api/backoffice/privacy/search?q=${encodeURIComponent(` ${holders.emails[0]?.toUpperCase()} `)}`,
      );
      const found = byEmail.json<Search>();
      expect(found.summary.sales?.ids).toStrictEqual([saleId]);
      expect(found.summary.contactRequests?.ids).toStrictEqual([rows.contact.id]);
      expect(found.summary.subscriptions?.ids).toStrictEqual([rows.subscription.id]);
      expect(found.summary.quotations?.ids).toStrictEqual([quotationId]);
      expect(found.claims.find((c) => c.id === rows.closed.id)?.closed).toBe(true);
      const nobody = await asOperator(
        ctx,
        operator,
        'GET',
        '/api/backoffice/privacy/search?q=nadie.nunca%40example.cl',
      );
      expect(Object.values(nobody.json<Search>().summary).map((s) => s.count)).toStrictEqual([0, 0, 0, 0, 0]);
      const bad = await asOperator(ctx, operator, 'GET', '/api/backoffice/privacy/search?q=--');
      expect(bad.status).toBe(400);
    });

    it('exports JSON and a readable PDF, each recorded once in the audit trail', async () => {
      const operator = await supportOf();
      const holders = freshHolders();
      const { idVenta: saleId } = await paidSaleOf(ctx, holders);
      await otherData(ctx, holders);
      const email = holders.emails[0] ?? '';
      const json = await asOperator(ctx, operator, 'GET', `/api/backoffice/privacy/export?q=${email}&format=json`);
      expect(json.status, json.text).toBe(200);
      expect(json.headers['content-disposition']).toContain('datos-personales.json');
      const data = json.json<{
        sales: { id: number; purchase: { travellers: { email: string }[] } }[];
        contactRequests: { detail: string }[];
      }>();
      expect(data.sales[0]?.id).toBe(saleId);
      expect(data.sales[0]?.purchase.travellers.map((t) => t.email)).toContain(email);
      expect(data.contactRequests[0]?.detail).toBe('Quiero saber de mi póliza');
      const pdf = await call(ctx.app, {
        method: 'GET',
        url: `/api/backoffice/privacy/export?q=${holders.rut.dash}&format=pdf`,
        headers: { cookie: operator.cookie },
      });
      expect(pdf.status).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      const injected = await ctx.app.inject({
        method: 'GET',
        url: `/api/backoffice/privacy/export?q=${holders.rut.dash}&format=pdf`,
        headers: { cookie: operator.cookie },
      });
      const text = pdfStrings(injected.rawPayload).join('\n');
      expect(text).toContain(`Venta ${saleId}`);
      expect(text).toContain(holders.rut.dotsAndDash);
      expect(text).toContain('Médico en Madrid');
      const audits = await ctx.database.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'privacy.export'), eq(auditEntries.targetId, holders.rut.dash)));
      expect(audits).toHaveLength(2);
      expect(audits[0]?.actorLabel).toBe(operator.email);
    });

    it('anonymises contact requests, the newsletter and closed claims (documents deleted) and keeps the sales', async () => {
      const operator = await supportOf();
      const holders = freshHolders();
      const { idVenta: saleId } = await paidSaleOf(ctx, holders);
      const rows = await otherData(ctx, holders);
      const email = holders.emails[0] ?? '';
      const opened = await asOperator(ctx, operator, 'POST', '/api/backoffice/privacy/requests', {
        subject: email,
        kind: 'erasure',
      });
      expect(opened.status, opened.text).toBe(201);
      const request = opened.json<{ id: number; state: string }>();
      expect(request.state).toBe('open');
      const unconfirmed = await asOperator(ctx, operator, 'POST', '/api/backoffice/privacy/erase', { subject: email });
      expect(unconfirmed.status).toBe(400);
      const erased = await asOperator(ctx, operator, 'POST', '/api/backoffice/privacy/erase', {
        subject: email,
        confirm: true,
        requestId: request.id,
      });
      expect(erased.status, erased.text).toBe(200);
      const result = erased.json<{ keptSales: number[]; claims: number[]; answer: string; documentsDeleted: number }>();
      expect(result.keptSales).toStrictEqual([saleId]);
      expect(result.claims).toStrictEqual([rows.closed.id]);
      expect(result.documentsDeleted).toBe(1);
      expect(result.answer).toContain('se conservan durante el plazo legal');
      const db = ctx.database.db;
      const [contact] = await db.select().from(contactRequests).where(eq(contactRequests.id, rows.contact.id));
      expect(contact).toMatchObject({ fullName: anonymised, email: anonymised, phone: anonymised, detail: anonymised });
      expect(await db.select().from(subscriptions).where(eq(subscriptions.id, rows.subscription.id))).toHaveLength(0);
      const claims = await db
        .select()
        .from(refundRequests)
        .where(inArray(refundRequests.id, [rows.closed.id, rows.open.id]));
      expect(claims.find((c) => c.id === rows.closed.id)).toMatchObject({ email: anonymised, description: anonymised });
      expect(claims.find((c) => c.id === rows.open.id)?.email).toBe(email);
      expect(await db.select().from(refundFiles).where(eq(refundFiles.requestId, rows.closed.id))).toHaveLength(0);
      await expect(ctx.app.documentStore.get(rows.storageKey)).rejects.toThrow();
      const [sale] = await db.select().from(sales).where(eq(sales.id, saleId));
      expect(sale?.purchase?.travellers[0]?.email).toBe(email);
      const [answered] = await db.select().from(personalDataRequests).where(eq(personalDataRequests.id, request.id));
      expect(answered).toMatchObject({ state: 'answered', handledBy: operator.email });
      const audits = await db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'privacy.erase'), eq(auditEntries.targetId, email)));
      expect(audits).toHaveLength(1);
      expect(audits[0]?.before).toMatchObject({ contactRequests: { count: 1 } });
      expect(audits[0]?.after).toMatchObject({ contactRequests: [rows.contact.id], keptSales: [saleId] });
      // The request is answered: a second erasure naming it is refused, and the answer cannot be changed.
      const again = await asOperator(ctx, operator, 'POST', '/api/backoffice/privacy/erase', {
        subject: email,
        confirm: true,
        requestId: request.id,
      });
      expect(again.status).toBe(409);
    });

    it('registers a request and its answer, one audit row each, and lists them', async () => {
      const operator = await supportOf();
      const subject = freshHolders().rut.dotsAndDash;
      const opened = await asOperator(ctx, operator, 'POST', '/api/backoffice/privacy/requests', {
        subject,
        kind: 'access',
      });
      const { id } = opened.json<{ id: number }>();
      const answered = await asOperator(ctx, operator, 'POST', `/api/backoffice/privacy/requests/${id}/answer`, {
        answer: 'Enviamos la copia de sus datos por correo.',
      });
      expect(answered.status, answered.text).toBe(200);
      expect(answered.json()).toMatchObject({ state: 'answered', handledBy: operator.email });
      const twice = await asOperator(ctx, operator, 'POST', `/api/backoffice/privacy/requests/${id}/answer`, {
        answer: 'otra',
      });
      expect(twice.status).toBe(409);
      const list = await asOperator(ctx, operator, 'GET', '/api/backoffice/privacy/requests');
      expect(list.json<{ requests: { id: number; state: string }[] }>().requests.find((r) => r.id === id)?.state).toBe(
        'answered',
      );
      const audits = await ctx.database.db
        .select()
        .from(auditEntries)
        .where(eq(auditEntries.targetId, String(id)));
      const mine = audits.filter((a) => a.targetType === 'personal_data_request');
      expect(mine.map((a) => a.action).sort()).toStrictEqual(['privacy.request.answer', 'privacy.request.open']);
      expect(mine.find((a) => a.action === 'privacy.request.answer')?.before).toMatchObject({ state: 'open' });
      const badKind = await asOperator(ctx, operator, 'POST', '/api/backoffice/privacy/requests', {
        subject,
        kind: 'x',
      });
      expect(badKind.status).toBe(400);
    });

    it('two operators answering one request at once: one answers, the other gets 409; one audit row (8 rounds)', async () => {
      const operator = await supportOf();
      const admin = await enrolledOperator(ctx, `privacidad.admin.${randomInt(1e6)}@travesia.cl`, ['admin'], clock);
      for (let round = 0; round < 8; round++) {
        const opened = await asOperator(ctx, operator, 'POST', '/api/backoffice/privacy/requests', {
          subject: `ronda.${round}.${randomInt(1e6)}@example.cl`,
          kind: 'access',
        });
        const { id } = opened.json<{ id: number }>();
        const answers = await Promise.all(
          [operator, admin].map((who) =>
            asOperator(ctx, who, 'POST', `/api/backoffice/privacy/requests/${id}/answer`, { answer: who.email }),
          ),
        );
        expect(answers.map((answer) => answer.status).sort()).toStrictEqual([200, 409]);
        const audits = await ctx.database.db
          .select()
          .from(auditEntries)
          .where(and(eq(auditEntries.action, 'privacy.request.answer'), eq(auditEntries.targetId, String(id))));
        expect(audits).toHaveLength(1);
        const [row] = await ctx.database.db.select().from(personalDataRequests).where(eq(personalDataRequests.id, id));
        expect(row?.answer).toBe(audits[0]?.actorLabel);
      }
    });

    it('rectifies a contact request’s name and e-mail and a subscription’s address, audited; a taken address is 409', async () => {
      const operator = await supportOf();
      const holders = freshHolders();
      const rows = await otherData(ctx, holders);
      const corrected = `corregido.${randomInt(1e7)}@example.cl`;
      const contact = await asOperator(ctx, operator, 'POST', '/api/backoffice/privacy/rectify', {
        source: 'contact',
        id: rows.contact.id,
        fullName: 'Camila Rojas Soto',
        email: corrected.toUpperCase(),
      });
      expect(contact.status, contact.text).toBe(200);
      expect(contact.json()).toMatchObject({ fullName: 'Camila Rojas Soto', email: corrected });
      const subscription = await asOperator(ctx, operator, 'POST', '/api/backoffice/privacy/rectify', {
        source: 'subscription',
        id: rows.subscription.id,
        email: corrected,
      });
      expect(subscription.json()).toMatchObject({ email: corrected });
      const other = await otherData(ctx, freshHolders());
      const taken = await asOperator(ctx, operator, 'POST', '/api/backoffice/privacy/rectify', {
        source: 'subscription',
        id: other.subscription.id,
        email: corrected,
      });
      expect(taken.status).toBe(409);
      const nothing = await asOperator(ctx, operator, 'POST', '/api/backoffice/privacy/rectify', {
        source: 'contact',
        id: rows.contact.id,
      });
      expect(nothing.status).toBe(400);
      const audits = await ctx.database.db
        .select()
        .from(auditEntries)
        .where(eq(auditEntries.action, 'privacy.rectify'));
      const mine = audits.filter(
        (a) =>
          (a.targetType === 'contact_request' && a.targetId === String(rows.contact.id)) ||
          (a.targetType === 'subscription' && a.targetId === String(rows.subscription.id)),
      );
      expect(mine).toHaveLength(2);
      expect(mine.find((a) => a.targetType === 'contact_request')?.before).toMatchObject({ fullName: 'Camila Rojas' });
      // Found now by the corrected address.
      const found = await asOperator(ctx, operator, 'GET', `/api/backoffice/privacy/search?q=${corrected}`);
      expect(found.json<Search>().summary.contactRequests?.ids).toStrictEqual([rows.contact.id]);
    });

    it('a finance operator is refused (403); support and admin may', async () => {
      const finance = await enrolledOperator(ctx, `privacidad.fin.${randomInt(1e6)}@travesia.cl`, ['finance'], clock);
      const refused = await asOperator(ctx, finance, 'GET', '/api/backoffice/privacy/requests');
      expect(refused.status).toBe(403);
    });

    it('the retention anonymises closed contact requests and closed claims older than the configured months, keeps the rest', async () => {
      const old = await otherData(ctx, freshHolders(), new Date(clock.now().getTime() - 30 * monthMs));
      const oldUnanswered = await otherData(ctx, freshHolders(), new Date(clock.now().getTime() - 30 * monthMs));
      const recent = await otherData(ctx, freshHolders(), new Date(clock.now().getTime() - 2 * monthMs));
      for (const id of [old.contact.id, recent.contact.id]) {
        await ctx.database.db.update(contactRequests).set({ state: 'handled' }).where(eq(contactRequests.id, id));
      }
      const counts = await applyRetention(
        ctx.database.db,
        ctx.app.documentStore,
        { contactMonths: 24, claimsMonths: 24 },
        clock.now(),
      );
      expect(counts.contactRequests).toBeGreaterThanOrEqual(1);
      const db = ctx.database.db;
      const contacts = await db
        .select()
        .from(contactRequests)
        .where(inArray(contactRequests.id, [old.contact.id, recent.contact.id, oldUnanswered.contact.id]));
      expect(contacts.find((c) => c.id === old.contact.id)?.email).toBe(anonymised);
      expect(contacts.find((c) => c.id === recent.contact.id)?.email).not.toBe(anonymised);
      // Nobody answered it yet: kept whatever its age, until someone does.
      expect(contacts.find((c) => c.id === oldUnanswered.contact.id)?.email).not.toBe(anonymised);
      const claims = await db
        .select()
        .from(refundRequests)
        .where(inArray(refundRequests.id, [old.closed.id, old.open.id, recent.closed.id]));
      expect(claims.find((c) => c.id === old.closed.id)?.holderName).toBe(anonymised);
      // An old claim still open and a recent closed one are kept as they are.
      expect(claims.find((c) => c.id === old.open.id)?.holderName).toBe('Camila Rojas');
      expect(claims.find((c) => c.id === recent.closed.id)?.holderName).toBe('Camila Rojas');
      await expect(ctx.app.documentStore.get(old.storageKey)).rejects.toThrow();
      await ctx.app.documentStore.get(recent.storageKey);
      // The worker's hook (config.retention, 24 and 60 months by default) finds nothing more to do either.
      expect(await ctx.app.applyRetention()).toBe(0);
      // Run again: nothing left to do.
      const again = await applyRetention(
        db,
        ctx.app.documentStore,
        { contactMonths: 24, claimsMonths: 24 },
        clock.now(),
      );
      expect(again).toStrictEqual({ contactRequests: 0, claims: 0 });
    });
  },
  {},
  { now: clock.now },
);
