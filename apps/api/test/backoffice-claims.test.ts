import { and, eq, ne } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { auditEntries, refundRequests } from '#app/db/schema.ts';
import { claimDocuments } from '#app/modules/claims/service.ts';
import { asOperator, enrolledOperator, minute, type Operator, TestClock } from './support/backoffice.ts';
import { useTemporaryDataDir } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { type Answer, call } from './support/http.ts';
import { type CoveredSale, claimBody, coveredSale } from './support/refund-claims.ts';
import { useFakeSmtp } from './support/smtp.ts';
import { inDays } from './support/trips.ts';

/**
 * The console's claims screen (issue 24, «Reembolsos»): the inbox and its filters, a claim's page, the actions (each
 * one audit row with before and after), the holder's e-mails, the signed document links, and two operators acting on
 * one claim at once (on PostgreSQL the requests run in parallel on the pool: one wins, the other gets 409).
 */

const clock = new TestClock();
const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n');
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-body')]);

// The console's origin: the company's e-mails link each claim's page there.
const env: NodeJS.ProcessEnv = { WORKER: 'off', BACKOFFICE_ORIGIN: 'http://consola.travesia.test' };
useTemporaryDataDir(env);
const smtp = useFakeSmtp(env);
const { mailsAbout } = smtp;

type Detail = {
  number: string;
  version: number;
  status: string;
  nextStatuses: string[];
  assignedTo: { operatorId: string; label: string } | null;
  amounts: { claimed: number; approved: number | null; paidClp: number | null };
  missingDocuments: string | null;
  documents: { id: number; name: string; type: string; link: { url: string; expiresAt: string } }[];
  history: { kind: string; by: string; from: string | null; to: string | null; text: string | null }[];
  notes: { by: string; text: string | null }[];
};

let covered: CoveredSale = { saleId: 0, certificates: [] };

async function newClaim(ctx: TestContext, monto = 185000): Promise<string> {
  const answer = await call(ctx.app, {
    method: 'POST',
    url: '/api/companies/1/refunds',
    payload: claimBody(covered.certificates[0] ?? '', {
      monto,
      documentos: [
        { nombre: 'boleta.pdf', contenido: pdf.toString('base64') },
        { nombre: 'receta.png', contenido: png.toString('base64') },
      ],
    }),
  });
  expect(answer.status, answer.text).toBe(204);
  return String(answer.headers['x-refund-number']);
}

const detail = async (ctx: TestContext, operator: Operator, number: string) => {
  const answer = await asOperator(ctx, operator, 'GET', `/api/backoffice/claims/${number}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.json<Detail>();
};

/** The claim's audit rows of actions (its views, `claim.viewed`, are counted apart). */
const auditOf = async (ctx: TestContext, number: string) =>
  ctx.database.db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.targetId, number), ne(auditEntries.action, 'claim.viewed')))
    .orderBy(auditEntries.id);
const viewsOf = async (ctx: TestContext, number: string) =>
  ctx.database.db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.targetId, number), eq(auditEntries.action, 'claim.viewed')));

/** Every queued job run (a run takes a bounded number; the inbox test queued a hundred e-mails). */
async function drainJobs(ctx: TestContext) {
  while ((await ctx.app.runJobs()) > 0);
}

const errorOf = (answer: Answer) =>
  answer.json<{ detail: string; errors?: { field: string; code: string; message: string }[] }>();

describeOnEachDatabase(
  'Operator console: claims («Reembolsos»)',
  (ctx) => {
    let support: Operator;
    let support2: Operator;
    let finance: Operator;
    let content: Operator;
    beforeAll(async () => {
      covered = await coveredSale(ctx);
      support = await enrolledOperator(ctx, 'atencion@travesia.cl', ['support'], clock);
      support2 = await enrolledOperator(ctx, 'atencion2@travesia.cl', ['support'], clock);
      finance = await enrolledOperator(ctx, 'finanzas@travesia.cl', ['finance'], clock);
      content = await enrolledOperator(ctx, 'contenidos@travesia.cl', ['content'], clock);
    });

    it('inbox: filters by status, assignee and age, oldest first, with days waiting and keyset pages', async () => {
      const numbers = [await newClaim(ctx), await newClaim(ctx), await newClaim(ctx)];
      // The first was received 10 days before the clock's now.
      await ctx.database.db
        .update(refundRequests)
        .set({ createdAt: new Date(clock.at.getTime() - 10 * 24 * 60 * minute) })
        .where(eq(refundRequests.number, numbers[0] as string));
      const inbox = async (query: string) => {
        const answer = await asOperator(ctx, support, 'GET', `/api/backoffice/claims${query}`);
        expect(answer.status, answer.text).toBe(200);
        return answer.json<{
          claims: { number: string; status: string; waitingDays: number; assignedTo: string | null }[];
          nextCursor: string | null;
        }>();
      };
      const waiting = await inbox('?status=waiting');
      for (const number of numbers) expect(waiting.claims.map((c) => c.number)).toContain(number);
      expect(waiting.claims.every((c) => ['recibida', 'en_revision'].includes(c.status))).toBe(true);
      const old = await inbox('?olderThanDays=7');
      expect(old.claims.map((c) => c.number)).toStrictEqual([numbers[0]]);
      expect(old.claims[0]?.waitingDays).toBe(10);
      // Take the second: it leaves «unassigned» and appears under «me».
      const read = await detail(ctx, support, numbers[1] as string);
      const taken = await asOperator(ctx, support, 'POST', `/api/backoffice/claims/${numbers[1]}/assign`, {
        version: read.version,
      });
      expect(taken.status, taken.text).toBe(200);
      expect((await inbox('?assigned=me')).claims.map((c) => c.number)).toStrictEqual([numbers[1]]);
      const unassigned = (await inbox('?assigned=unassigned')).claims.map((c) => c.number);
      expect(unassigned).toContain(numbers[0]);
      expect(unassigned).not.toContain(numbers[1]);
      expect((await inbox('?assigned=me')).claims[0]?.assignedTo).toBe('atencion@travesia.cl');
      // Keyset pages: 50 a page, then the rest after the cursor, nothing twice.
      for (let i = 0; i < 49; i += 1) await newClaim(ctx, 1000 + i);
      const first = await inbox('');
      expect(first.claims).toHaveLength(50);
      expect(first.nextCursor).not.toBeNull();
      const second = await inbox(`?cursor=${first.nextCursor}`);
      const seen = new Set(first.claims.map((c) => c.number));
      for (const claim of second.claims) expect(seen.has(claim.number)).toBe(false);
      expect(first.claims.length + second.claims.length).toBeGreaterThanOrEqual(52);
      const bad = await asOperator(ctx, support, 'GET', '/api/backoffice/claims?status=abierta');
      expect(bad.status).toBe(400);
    });

    it("a claim's page, and each action with its audit row (before and after) and the holder's e-mail", async () => {
      const number = await newClaim(ctx);
      let claim = await detail(ctx, support, number);
      expect(claim).toMatchObject({
        status: 'recibida',
        assignedTo: null,
        amounts: { claimed: 185000, approved: null, paidClp: null },
        claimant: { name: 'Ana María Pérez', email: 'ana.perez@example.cl', accountNumber: '12345678' },
        incident: { date: inDays(0) },
      });
      expect(claim.documents.map((d) => [d.name, d.type])).toStrictEqual([
        ['boleta.pdf', 'application/pdf'],
        ['receta.png', 'image/png'],
      ]);
      expect(claim.nextStatuses).not.toContain('pagada');
      // Reading the claim left a trail: who looked, at which claim, nothing of its data.
      expect(await viewsOf(ctx, number)).toMatchObject([
        { actorOperatorId: support.id, targetType: 'claim', after: null },
      ]);

      // «Asignarme»
      const assign = await asOperator(ctx, support, 'POST', `/api/backoffice/claims/${number}/assign`, {
        version: claim.version,
      });
      expect(assign.status, assign.text).toBe(200);
      let audit = await auditOf(ctx, number);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        action: 'claim.assign',
        actorLabel: 'atencion@travesia.cl',
        before: { assignedTo: null, version: claim.version },
        after: { assignedTo: 'atencion@travesia.cl', version: claim.version + 1 },
      });

      // «Faltan documentos» with the list, e-mailed; the message is in the e-mail.
      claim = await detail(ctx, support, number);
      const missing = await asOperator(ctx, support, 'POST', `/api/backoffice/claims/${number}/status`, {
        version: claim.version,
        status: 'faltan_documentos',
        missing: 'Boleta original de la clínica; informe médico',
        message: 'Con esos documentos terminamos la revisión.',
      });
      expect(missing.status, missing.text).toBe(200);
      await drainJobs(ctx);
      const asked = mailsAbout(number).find((m) => m.parsed.subject?.includes('Faltan documentos'));
      expect(asked?.to).toContain('ana.perez@example.cl');
      expect(asked?.parsed.text).toContain('Boleta original de la clínica; informe médico');
      expect(asked?.parsed.text).toContain('Con esos documentos terminamos la revisión.');
      const company = mailsAbout(number).find((m) => m.parsed.subject?.startsWith('Nueva solicitud de reembolso'));
      expect(company?.parsed.text).toContain(
        `En la consola: http://consola.travesia.test/backoffice/reembolsos/${number}`,
      );

      // An internal note: shown, audited, never e-mailed.
      const mailsBefore = smtp.received().length;
      const note = await asOperator(ctx, finance, 'POST', `/api/backoffice/claims/${number}/notes`, {
        text: 'Nota interna: la clínica confirmó la atención por teléfono',
      });
      expect(note.status, note.text).toBe(201);
      await drainJobs(ctx);
      expect(smtp.received().length).toBe(mailsBefore);
      expect(smtp.received().some((m) => m.parsed.text?.includes('Nota interna'))).toBe(false);

      // Approve: the amount is validated (whole pesos), then recorded.
      claim = await detail(ctx, support, number);
      expect(claim.notes).toMatchObject([
        { by: 'finanzas@travesia.cl', text: 'Nota interna: la clínica confirmó la atención por teléfono' },
      ]);
      const fractional = await asOperator(ctx, support, 'POST', `/api/backoffice/claims/${number}/status`, {
        version: claim.version,
        status: 'aprobada',
        amount: 150000.5,
      });
      expect(fractional.status).toBe(400);
      expect(errorOf(fractional).errors?.[0]).toMatchObject({ field: 'amount', code: 'invalid_format' });
      const approve = await asOperator(ctx, support, 'POST', `/api/backoffice/claims/${number}/status`, {
        version: claim.version,
        status: 'aprobada',
        amount: 150000,
        message: 'Descontamos el deducible del plan.',
      });
      expect(approve.status, approve.text).toBe(200);
      // Support may not mark it paid, by either route; finance records the payment.
      claim = await detail(ctx, support, number);
      const paidByStatus = await asOperator(ctx, support, 'POST', `/api/backoffice/claims/${number}/status`, {
        version: claim.version,
        status: 'pagada',
      });
      expect(paidByStatus.status).toBe(400);
      expect(
        (
          await asOperator(ctx, support, 'POST', `/api/backoffice/claims/${number}/payment`, {
            version: claim.version,
            paidAmountClp: 150000,
          })
        ).status,
      ).toBe(403);
      const notWhole = await asOperator(ctx, finance, 'POST', `/api/backoffice/claims/${number}/payment`, {
        version: claim.version,
        paidAmountClp: 1.5,
      });
      expect(notWhole.status).toBe(400);
      // One zero too many: more than approved is refused in words, nothing recorded.
      const overpaid = await asOperator(ctx, finance, 'POST', `/api/backoffice/claims/${number}/payment`, {
        version: claim.version,
        paidAmountClp: 1500000,
      });
      expect(overpaid.status).toBe(400);
      expect(errorOf(overpaid).errors?.[0]).toMatchObject({ field: 'paidAmountClp', code: 'out_of_range' });
      expect(errorOf(overpaid).errors?.[0]?.message).toContain('$150.000');
      const paid = await asOperator(ctx, finance, 'POST', `/api/backoffice/claims/${number}/payment`, {
        version: claim.version,
        paidAmountClp: 150000,
      });
      expect(paid.status, paid.text).toBe(200);
      await drainJobs(ctx);
      const paidMail = mailsAbout(number).find((m) => m.parsed.subject?.includes('Pagada'));
      expect(paidMail?.parsed.text).toContain('Transferimos $150.000');

      claim = await detail(ctx, finance, number);
      expect(claim).toMatchObject({ status: 'pagada', amounts: { approved: 150000, paidClp: 150000 } });
      expect(claim.history.map((h) => [h.kind, h.from, h.to])).toStrictEqual([
        ['assign', null, null],
        ['status', 'recibida', 'faltan_documentos'],
        ['status', 'faltan_documentos', 'aprobada'],
        ['payment', 'aprobada', 'pagada'],
      ]);
      audit = await auditOf(ctx, number);
      expect(audit.map((row) => row.action)).toStrictEqual([
        'claim.assign',
        'claim.status',
        'claim.note',
        'claim.status',
        'claim.payment',
      ]);
      expect(audit[3]).toMatchObject({
        before: { status: 'faltan_documentos', approvedAmount: null },
        after: { status: 'aprobada', approvedAmount: 150000 },
      });
      expect(audit[4]).toMatchObject({
        actorLabel: 'finanzas@travesia.cl',
        before: { status: 'aprobada', paidAmountClp: null },
        after: { status: 'pagada', paidAmountClp: 150000 },
      });
      // A refused action wrote nothing: five actions, five rows.
      expect((await asOperator(ctx, content, 'GET', `/api/backoffice/claims/${number}`)).status).toBe(403);
    });

    it('documents: a signed link serves the stored type inline and sandboxed; a changed or expired one does not', async () => {
      const number = await newClaim(ctx);
      const claim = await detail(ctx, support, number);
      const [boleta, receta] = claim.documents;
      const open = (url: string, operator: Operator | undefined = support) => asOperator(ctx, operator, 'GET', url);
      const served = await open(boleta?.link.url as string);
      expect(served.status, served.text).toBe(200);
      expect(served.headers['content-type']).toBe('application/pdf');
      expect(served.headers['content-disposition']).toMatch(/^inline; filename="documento-\d+\.pdf"$/);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(String(served.headers['content-security-policy'])).toMatch(/^sandbox;/);
      expect(String(served.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
      expect(served.text).toBe(pdf.toString('latin1'));
      const image = await open(receta?.link.url as string);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.text).toContain('PNG\r\n\u001a\nIHDR-body');
      // Another document's id with this signature, or another expiry: not found.
      const url = new URL(boleta?.link.url as string, 'http://x');
      const otherId = `/api/backoffice/claim-documents/${receta?.id}${url.search}`;
      expect((await open(otherId)).status).toBe(404);
      url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
      const later = await open(`${url.pathname}${url.search}`);
      expect(later.status).toBe(404);
      expect(later.json()).toMatchObject({ status: 404 });
      // Past its expiry (5 minutes), the genuine link is refused in words.
      clock.advance(6 * minute);
      const expired = await open(boleta?.link.url as string);
      expect(expired.status).toBe(403);
      expect(errorOf(expired).detail).toContain('venció');
      // Without a session, or with a role that does not read claims, the link alone opens nothing.
      const fresh = (await detail(ctx, support, number)).documents[0]?.link.url as string;
      expect((await call(ctx.app, { method: 'GET', url: fresh })).status).toBe(401);
      expect((await open(fresh, content)).status).toBe(403);
      expect((await open(fresh)).status).toBe(200);
      // A document whose bytes are gone from the store is a 404, never a 500.
      const [stored] = await claimDocuments(ctx.database.db, ctx.app.documentStore, number);
      await ctx.app.documentStore.delete(stored?.storageKey as string);
      const gone = await open(fresh);
      expect(gone.status).toBe(404);
      expect(gone.json()).toMatchObject({ status: 404 });
    });

    it('two operators changing one claim at once: one wins, the other gets 409 in words; one audit row per win', async () => {
      const rounds = 8;
      for (let round = 0; round < rounds; round++) {
        const number = await newClaim(ctx);
        const read = await detail(ctx, support, number);
        const answers = await Promise.all([
          asOperator(ctx, support, 'POST', `/api/backoffice/claims/${number}/status`, {
            version: read.version,
            status: 'en_revision',
            message: 'Revisando',
          }),
          asOperator(ctx, support2, 'POST', `/api/backoffice/claims/${number}/status`, {
            version: read.version,
            status: 'rechazada',
            reason: 'No cubierto',
          }),
        ]);
        expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join('\n')).toStrictEqual([200, 409]);
        const loser = answers.find((a) => a.status === 409) as Answer;
        expect(errorOf(loser).errors?.[0]).toMatchObject({ field: 'version', code: 'stale' });
        expect(errorOf(loser).detail).toContain('Otro operador cambió este reembolso');
        expect(await auditOf(ctx, number)).toHaveLength(1);
        // Two «Asignarme» at once on the new version: one operator gets it.
        const again = await detail(ctx, support, number);
        const takes = await Promise.all(
          [support, support2].map((operator) =>
            asOperator(ctx, operator, 'POST', `/api/backoffice/claims/${number}/assign`, { version: again.version }),
          ),
        );
        expect(takes.map((a) => a.status).sort()).toStrictEqual([200, 409]);
        const audit = await auditOf(ctx, number);
        expect(audit.map((row) => row.action)).toStrictEqual(['claim.status', 'claim.assign']);
        const after = await detail(ctx, support, number);
        expect(after.history.filter((h) => h.kind === 'status')).toHaveLength(1);
      }
    });
  },
  env,
  { now: clock.now },
);
