import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditEntries, contactRequests, subscriptions } from '#app/db/schema.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { useFakeSmtp } from './support/smtp.ts';

/**
 * Screens 5 and 6 of the console (issue 24): contact requests answered or handled from the console, and the
 * newsletter's subscribers. Each action is one audit row with before and after; two operators at once on one item:
 * one wins, the other is told why (on PostgreSQL the requests run in parallel on the pool).
 */

const clock = new TestClock();
const env: NodeJS.ProcessEnv = {};
const smtp = useFakeSmtp(env);
const hour = 3_600_000;
const rounds = 10;
let serial = 0;

/** A request as the contact form stores it, received `hoursAgo` before the test clock. */
async function storedRequest(ctx: TestContext, hoursAgo = 1, email = `visita${++serial}@example.cl`) {
  const [row] = await ctx.database.db
    .insert(contactRequests)
    .values({
      companyId: 1,
      subjectId: 3,
      subjectLabel: 'Certificados',
      fullName: 'Camila Rojas Soto',
      email,
      phone: '+56 9 1234 5678',
      detail: 'Necesito un certificado en inglés.\nViajo el 12 de diciembre.',
      recipient: 'contacto@travesia.cl',
      createdAt: new Date(clock.at.getTime() - hoursAgo * hour),
    })
    .returning({ id: contactRequests.id });
  return row?.id as number;
}

async function storedSubscriber(ctx: TestContext, email: string, confirmed: boolean) {
  const [row] = await ctx.database.db
    .insert(subscriptions)
    .values({ companyId: 1, email, confirmedAt: confirmed ? new Date() : null })
    .returning({ id: subscriptions.id });
  return row?.id as number;
}

const auditOf = (ctx: TestContext, targetType: string, targetId: number) =>
  ctx.database.db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.targetType, targetType), eq(auditEntries.targetId, String(targetId))));

type Summary = { id: number; state: string; closedBy: { operatorId: string; name: string; label: string } | null };

describeOnEachDatabase(
  'Operator console: «Contacto» and «Newsletter»',
  (ctx) => {
    let support: Operator;
    let other: Operator;
    let content: Operator;
    it('enrols the operators', async () => {
      support = await enrolledOperator(ctx, 'soporte@travesia.cl', ['support'], clock);
      other = await enrolledOperator(ctx, 'soporte2@travesia.cl', ['support'], clock);
      content = await enrolledOperator(ctx, 'contenido@travesia.cl', ['content'], clock);
    });

    it('a reply is e-mailed to the visitor from the sender, Reply-To the contact address, stored with who sent it, and audited once', async () => {
      const id = await storedRequest(ctx);
      const detail = await asOperator(ctx, support, 'GET', `/api/backoffice/contact-requests/${id}`);
      expect(detail.status, detail.text).toBe(200);
      expect(detail.json()).toMatchObject({ request: { id, state: 'unanswered', reply: null, closedBy: null } });

      const reply = 'Hola Camila: te enviamos el certificado en inglés.\nSaludos.';
      // A declared name or operator is not a field (dropped): who replied comes from the session alone.
      const answer = await asOperator(ctx, support, 'POST', `/api/backoffice/contact-requests/${id}/reply`, {
        reply: `  ${reply}  `,
        closedByName: 'Impostor',
        operatorId: other.id,
      });
      expect(answer.status, answer.text).toBe(200);
      const stored = answer.json<{ request: Summary & { reply: string; closedAt: string } }>().request;
      expect(stored).toMatchObject({
        state: 'answered',
        reply,
        closedAt: clock.at.toISOString(),
        closedBy: { operatorId: support.id, name: 'soporte', label: 'soporte@travesia.cl' },
      });

      await ctx.app.runJobs();
      const [mail] = smtp.mailsTo(`visita${serial}@example.cl`);
      expect(mail?.parsed.subject).toBe(`Re: Solicitud de contacto N° ${id}: Certificados`);
      expect(mail?.parsed.replyTo?.value[0]?.address).toBe('contacto@travesia.cl');
      expect(mail?.parsed.from?.value[0]?.address).toBe('certificados@travesia.cl');
      expect(mail?.parsed.text).toContain('te enviamos el certificado en inglés');
      expect(mail?.parsed.text).toContain('> Necesito un certificado en inglés.');

      const audit = await auditOf(ctx, 'contact_request', id);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        action: 'contact.reply',
        actorOperatorId: support.id,
        before: { state: 'unanswered' },
        after: { state: 'answered', reply, closedByOperatorId: support.id },
      });

      // Answered is final: a second reply or «atendida» is a 409 in words, and changes nothing.
      const again = await asOperator(ctx, other, 'POST', `/api/backoffice/contact-requests/${id}/handled`);
      expect(again.status).toBe(409);
      expect(again.json<{ detail: string }>().detail).toBe(
        'soporte ya respondió esta solicitud. Recarga la página para verla.',
      );
      expect(await auditOf(ctx, 'contact_request', id)).toHaveLength(1);
    });

    it('refuses an empty or too long reply (400 §8), an unknown request (404), and a bad filter (400)', async () => {
      const id = await storedRequest(ctx);
      for (const body of [{ reply: '   ' }, { reply: 'x'.repeat(5001) }, {}]) {
        const answer = await asOperator(ctx, support, 'POST', `/api/backoffice/contact-requests/${id}/reply`, body);
        expect(answer.status, answer.text).toBe(400);
        expect(answer.json()).toMatchObject({ detail: 'Revisa los datos ingresados.', errors: [{ field: 'reply' }] });
      }
      const unknown = await asOperator(ctx, support, 'POST', '/api/backoffice/contact-requests/2147483000/handled');
      expect(unknown.status).toBe(404);
      expect(unknown.json()).toMatchObject({ detail: 'No existe esa solicitud de contacto.' });
      for (const query of ['state=open', 'olderThanHours=0', 'cursor=abc']) {
        const answer = await asOperator(ctx, support, 'GET', `/api/backoffice/contact-requests?${query}`);
        expect(answer.status, query).toBe(400);
      }
      expect(await auditOf(ctx, 'contact_request', id)).toHaveLength(0);
    });

    it('the inbox filters by state and age and pages by cursor; «Hoy» counts the unanswered ones over 24 hours', async () => {
      const figure = async () => {
        const today = await asOperator(ctx, support, 'GET', '/api/backoffice/today');
        return today
          .json<{ figures: { key: string; value: number; href: string }[] }>()
          .figures.find((f) => f.key === 'contact-requests-24h');
      };
      const before = await figure();
      expect(before?.href).toBe('/backoffice/contacto?estado=sin-responder&antiguedad=24');
      const old = await storedRequest(ctx, 30);
      const older = await storedRequest(ctx, 48);
      const fresh = await storedRequest(ctx, 2);
      expect((await figure())?.value).toBe((before?.value ?? 0) + 2);
      const handled = await asOperator(ctx, support, 'POST', `/api/backoffice/contact-requests/${older}/handled`);
      expect(handled.status, handled.text).toBe(200);
      expect(handled.json()).toMatchObject({ request: { state: 'handled', reply: null } });
      expect((await figure())?.value).toBe((before?.value ?? 0) + 1);
      const audit = await auditOf(ctx, 'contact_request', older);
      expect(audit.map((row) => [row.action, row.before, (row.after as { state: string }).state])).toStrictEqual([
        ['contact.handled', { state: 'unanswered' }, 'handled'],
      ]);

      const list = async (query: string) => {
        const answer = await asOperator(ctx, support, 'GET', `/api/backoffice/contact-requests?${query}`);
        expect(answer.status, answer.text).toBe(200);
        return answer.json<{ requests: Summary[]; nextCursor: string | null }>();
      };
      const aged = (await list('state=unanswered&olderThanHours=24')).requests.map((r) => r.id);
      expect(aged).toContain(old);
      expect(aged).not.toContain(fresh);
      expect(aged).not.toContain(older);
      const done = (await list('state=handled')).requests;
      expect(done.map((r) => r.id)).toContain(older);
      expect(done.every((r) => r.state === 'handled')).toBe(true);

      // Keyset pages: 50 each, newest first, no request twice, every one reached.
      for (let i = 0; i < 55; i++) await storedRequest(ctx, 3);
      const seen: number[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const page = await list(cursor ? `cursor=${cursor}` : '');
        expect(page.requests.length).toBeLessThanOrEqual(50);
        seen.push(...page.requests.map((r) => r.id));
        cursor = page.nextCursor;
      }
      expect(seen).toStrictEqual([...seen].sort((a, b) => b - a));
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toContain(old);
      expect(seen.length).toBeGreaterThanOrEqual(58);
    });

    it('two operators replying, or replying and handling, at once: one wins, the other gets 409 in words', async () => {
      for (let round = 0; round < rounds; round++) {
        const id = await storedRequest(ctx);
        const second =
          round % 2 === 0
            ? asOperator(ctx, other, 'POST', `/api/backoffice/contact-requests/${id}/reply`, { reply: 'Respuesta B' })
            : asOperator(ctx, other, 'POST', `/api/backoffice/contact-requests/${id}/handled`);
        const answers = await Promise.all([
          asOperator(ctx, support, 'POST', `/api/backoffice/contact-requests/${id}/reply`, { reply: 'Respuesta A' }),
          second,
        ]);
        expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join('\n')).toStrictEqual([200, 409]);
        const loser = answers.find((a) => a.status === 409)?.json<{ detail: string; errors: unknown[] }>();
        expect(loser?.detail).toMatch(/^soporte2? ya (respondió|marcó como atendida) esta solicitud\./);
        expect(loser?.errors).toMatchObject([{ field: 'state', code: 'stale' }]);
        const winner = answers.find((a) => a.status === 200)?.json<{ request: Summary }>().request;
        const audit = await auditOf(ctx, 'contact_request', id);
        expect(audit).toHaveLength(1);
        expect(audit[0]?.actorOperatorId).toBe(winner?.closedBy?.operatorId);
      }
    });

    it('newsletter: confirmed and pending subscribers, searched by e-mail, paged by cursor', async () => {
      const confirmed = await storedSubscriber(ctx, 'lista.confirmada@example.cl', true);
      const pending = await storedSubscriber(ctx, 'lista.pendiente@example.cl', false);
      const list = async (query: string, as = content) => {
        const answer = await asOperator(ctx, as, 'GET', `/api/backoffice/newsletter/subscribers?${query}`);
        expect(answer.status, answer.text).toBe(200);
        return answer.json<{
          subscribers: { id: number; email: string; state: string }[];
          nextCursor: string | null;
        }>();
      };
      expect((await list('email=LISTA.')).subscribers.map((s) => [s.id, s.state])).toStrictEqual([
        [pending, 'pending'],
        [confirmed, 'confirmed'],
      ]);
      expect((await list('email=lista.&state=confirmed')).subscribers.map((s) => s.id)).toStrictEqual([confirmed]);
      expect((await list('email=lista.&state=pending', support)).subscribers.map((s) => s.id)).toStrictEqual([pending]);
      for (let i = 0; i < 52; i++) await storedSubscriber(ctx, `pagina${i}@example.cl`, i % 2 === 0);
      const first = await list('email=pagina');
      expect(first.subscribers).toHaveLength(50);
      const next = await list(`email=pagina&cursor=${first.nextCursor}`);
      expect(next.subscribers).toHaveLength(2);
      expect(next.nextCursor).toBeNull();
      expect(new Set([...first.subscribers, ...next.subscribers].map((s) => s.email)).size).toBe(52);
      const bad = await asOperator(ctx, content, 'GET', '/api/backoffice/newsletter/subscribers?state=all');
      expect(bad.status).toBe(400);
    });

    it('unsubscribing one is audited once with what it was; twice at once: one 204, one 404 in words', async () => {
      for (let round = 0; round < rounds; round++) {
        const id = await storedSubscriber(ctx, `baja${round}@example.cl`, true);
        const answers = await Promise.all(
          [support, content].map((as) => asOperator(ctx, as, 'DELETE', `/api/backoffice/newsletter/subscribers/${id}`)),
        );
        expect(answers.map((a) => a.status).sort()).toStrictEqual([204, 404]);
        expect(answers.find((a) => a.status === 404)?.json()).toMatchObject({
          detail: 'Esa suscripción no existe o ya se dio de baja.',
        });
        const audit = await auditOf(ctx, 'subscription', id);
        expect(audit).toHaveLength(1);
        expect(audit[0]).toMatchObject({
          action: 'newsletter.unsubscribe',
          before: { email: `baja${round}@example.cl` },
          after: null,
        });
        const left = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, id));
        expect(left).toHaveLength(0);
      }
    });

    it('the CSV export streams the confirmed subscribers only, and is audited once', async () => {
      await storedSubscriber(ctx, 'csv.si@example.cl', true);
      await storedSubscriber(ctx, 'csv.no@example.cl', false);
      await storedSubscriber(ctx, '=csv.formula@example.cl', true);
      const before = await ctx.database.db
        .select()
        .from(auditEntries)
        .where(eq(auditEntries.action, 'newsletter.export'));
      const answer = await asOperator(ctx, content, 'GET', '/api/backoffice/newsletter/subscribers.csv?email=csv.');
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(answer.headers['content-disposition']).toBe('attachment; filename="suscriptores.csv"');
      const lines = answer.text.trim().split('\r\n');
      expect(lines[0]).toBe('email,subscribedAt,confirmedAt');
      expect(lines.slice(1).map((line) => line.split(',')[0])).toStrictEqual([
        "'=csv.formula@example.cl",
        'csv.si@example.cl',
      ]);
      const after = await ctx.database.db
        .select()
        .from(auditEntries)
        .where(eq(auditEntries.action, 'newsletter.export'));
      expect(after.length - before.length).toBe(1);
      expect(after.at(-1)).toMatchObject({ actorOperatorId: content.id, after: { state: 'confirmed', email: 'csv.' } });
      // Past one read of 500 rows: every address once, none twice.
      await ctx.database.db.insert(subscriptions).values(
        Array.from({ length: 505 }, (_, i) => ({
          companyId: 1,
          email: `lote${i}@example.cl`,
          confirmedAt: new Date(),
        })),
      );
      const batch = await asOperator(ctx, content, 'GET', '/api/backoffice/newsletter/subscribers.csv?email=lote');
      const emails = batch.text
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',')[0]);
      expect(emails).toHaveLength(505);
      expect(new Set(emails).size).toBe(505);
      // Support reads and unsubscribes, but does not take the list away.
      const refused = await asOperator(ctx, support, 'GET', '/api/backoffice/newsletter/subscribers.csv');
      expect(refused.status).toBe(403);
    });
  },
  env,
  { now: clock.now },
);
