import { addDays, chileDateOf } from '@travesia/domain/dates';
import { asc, desc, gt, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditEntries } from '#app/db/schema.ts';
import {
  asOperator,
  enrolWith,
  invite,
  type Operator,
  secondFactorStep,
  signedIn,
  signInStep,
  strongPassword,
  TestClock,
} from './support/backoffice.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';

/**
 * The audit trail (issue 24): every sign-in, failure, lockout, factor change, enrolment, operator change, API key
 * change and session revocation leaves exactly one row, with who, from where, and the values before and after; the
 * rows cannot be changed or deleted; the trail is searched by keyset pages and exported as CSV.
 */

const clock = new TestClock();

/** The rows `action` added, and nothing else. */
async function exactlyOneRow(ctx: TestContext, action: () => Promise<unknown>) {
  const [last] = await ctx.app.db
    .select({ id: sql<number>`coalesce(max(${auditEntries.id}), 0)::int` })
    .from(auditEntries);
  await action();
  const rows = await ctx.app.db
    .select()
    .from(auditEntries)
    .where(gt(auditEntries.id, last?.id ?? 0))
    .orderBy(asc(auditEntries.id));
  expect(rows, JSON.stringify(rows)).toHaveLength(1);
  return rows[0] as typeof auditEntries.$inferSelect;
}

describeOnEachDatabase(
  'Operator console: the audit trail',
  (ctx) => {
    let admin: Operator;

    it('each action leaves exactly one row, with actor, address, target and before/after', async () => {
      const { token } = await invite(ctx, 'jefa@travesia.cl', ['admin'], clock);
      const enrol = await exactlyOneRow(ctx, async () => {
        admin = await enrolWith(ctx, token, 'jefa@travesia.cl', clock);
      });
      expect(enrol).toMatchObject({
        action: 'operator.enrol',
        actorOperatorId: admin.id,
        actorLabel: 'jefa@travesia.cl',
        ip: '127.0.0.1',
        targetType: 'operator',
        targetId: admin.id,
        before: { state: 'invited', factors: [] },
        after: { state: 'active', factors: ['password', 'totp'], recoveryCodes: 10 },
      });

      const signIn = await exactlyOneRow(ctx, async () => {
        admin = await signedIn(ctx, admin, clock);
      });
      expect(signIn).toMatchObject({ action: 'sign-in', actorOperatorId: admin.id, after: { method: 'totp' } });

      const failure = await exactlyOneRow(ctx, () => signInStep(ctx, admin.email, 'una clave equivocada', '10.5.0.1'));
      expect(failure).toMatchObject({
        action: 'sign-in.failure',
        actorOperatorId: admin.id,
        ip: '10.5.0.1',
        after: { step: 'password' },
      });
      const unknown = await exactlyOneRow(ctx, () => signInStep(ctx, 'nadie@travesia.cl', 'x', '10.5.0.2'));
      expect(unknown).toMatchObject({
        action: 'sign-in.failure',
        actorOperatorId: null,
        actorLabel: 'nadie@travesia.cl',
      });
      const challenge = (await signInStep(ctx, admin.email, strongPassword)).json<{ challenge: string }>().challenge;
      const secondFailure = await exactlyOneRow(ctx, () => secondFactorStep(ctx, challenge, '000000'));
      expect(secondFailure).toMatchObject({ action: 'sign-in.failure', after: { step: 'second-factor' } });

      const recovery = await exactlyOneRow(ctx, async () => {
        const next = (await signInStep(ctx, admin.email, strongPassword)).json<{ challenge: string }>().challenge;
        expect((await secondFactorStep(ctx, next, admin.recoveryCodes[3] as string)).status).toBe(200);
      });
      expect(recovery).toMatchObject({ action: 'sign-in', after: { method: 'recovery-code', recoveryCodesLeft: 9 } });

      // The fifth failure in the window also locks: its own row, besides the failure's.
      await signInStep(ctx, 'victima@travesia.cl', 'x', '10.6.0.1');
      await signInStep(ctx, 'victima@travesia.cl', 'x', '10.6.0.2');
      await signInStep(ctx, 'victima@travesia.cl', 'x', '10.6.0.3');
      await signInStep(ctx, 'victima@travesia.cl', 'x', '10.6.0.4');
      const [lastBefore] = await ctx.app.db
        .select({ id: sql<number>`max(${auditEntries.id})::int` })
        .from(auditEntries);
      await signInStep(ctx, 'victima@travesia.cl', 'x', '10.6.0.5');
      const lockRows = await ctx.app.db
        .select()
        .from(auditEntries)
        .where(gt(auditEntries.id, lastBefore?.id ?? 0))
        .orderBy(asc(auditEntries.id));
      expect(lockRows.map((row) => row.action)).toStrictEqual(['sign-in.failure', 'sign-in.lockout']);
      expect(lockRows[1]?.after).toMatchObject({ lockedUntil: expect.any(String) });

      let invitedId = '';
      const inviteRow = await exactlyOneRow(ctx, async () => {
        const answer = await asOperator(ctx, admin, 'POST', '/api/backoffice/operators', {
          email: 'pepe@travesia.cl',
          roles: ['support'],
        });
        expect(answer.status, answer.text).toBe(201);
        invitedId = answer.json<{ operator: { id: string } }>().operator.id;
      });
      expect(inviteRow).toMatchObject({
        action: 'operator.invite',
        actorOperatorId: admin.id,
        targetId: invitedId,
        before: null,
        after: { email: 'pepe@travesia.cl', state: 'invited' },
      });

      const update = await exactlyOneRow(ctx, () =>
        asOperator(ctx, admin, 'PATCH', `/api/backoffice/operators/${invitedId}`, { roles: ['support', 'finance'] }),
      );
      expect(update).toMatchObject({
        action: 'operator.update',
        before: { roles: ['support'] },
        after: { roles: ['support', 'finance'] },
      });

      const reset = await exactlyOneRow(ctx, () =>
        asOperator(ctx, admin, 'POST', `/api/backoffice/operators/${invitedId}/reset-factors`),
      );
      expect(reset).toMatchObject({ action: 'operator.reset-factors', targetId: invitedId, after: { factors: [] } });

      let keyId = '';
      const keyRow = await exactlyOneRow(ctx, async () => {
        const answer = await asOperator(ctx, admin, 'POST', '/api/backoffice/api-keys', {
          name: 'conciliación',
          roles: ['finance'],
          expiresAt: '2027-06-01T00:00:00Z',
        });
        keyId = answer.json<{ apiKey: { id: string } }>().apiKey.id;
      });
      expect(keyRow).toMatchObject({
        action: 'api-key.create',
        targetId: keyId,
        before: null,
        after: { name: 'conciliación', roles: ['finance'], revokedAt: null },
      });
      expect(JSON.stringify(keyRow)).not.toMatch(/tvk_[A-Za-z0-9_-]{20}/);
      const revokeKey = await exactlyOneRow(ctx, () =>
        asOperator(ctx, admin, 'DELETE', `/api/backoffice/api-keys/${keyId}`),
      );
      expect(revokeKey).toMatchObject({
        action: 'api-key.revoke',
        before: { revokedAt: null },
        after: { revokedAt: expect.any(String) },
      });

      const other = await signedIn(ctx, admin, clock);
      const otherId = (await asOperator(ctx, other, 'GET', '/api/backoffice/me')).json<{ session: { id: string } }>()
        .session.id;
      const revokeSession = await exactlyOneRow(ctx, () =>
        asOperator(ctx, admin, 'DELETE', `/api/backoffice/sessions/${otherId}`),
      );
      expect(revokeSession).toMatchObject({
        action: 'session.revoke',
        targetType: 'session',
        targetId: otherId,
        before: { revoked: false },
        after: { revoked: true },
      });
      const signOut = await exactlyOneRow(ctx, () => asOperator(ctx, admin, 'POST', '/api/backoffice/sign-out'));
      expect(signOut).toMatchObject({ action: 'session.sign-out', actorOperatorId: admin.id });
      admin = await signedIn(ctx, admin, clock);
    });

    it('the rows cannot be changed or deleted, whatever the statement', async () => {
      for (const statement of [
        sql`UPDATE audit_entries SET action = 'nada'`,
        sql`DELETE FROM audit_entries`,
        sql`TRUNCATE audit_entries`,
      ]) {
        await expect(ctx.app.db.execute(statement)).rejects.toThrow();
      }
      const [count] = await ctx.app.db.select({ n: sql<number>`count(*)::int` }).from(auditEntries);
      expect(count?.n).toBeGreaterThan(10);
    });

    it('the search pages by keyset with filters; the CSV export holds the same rows', async () => {
      const pages: string[][] = [];
      let cursor: string | null = null;
      do {
        const answer = await asOperator(
          ctx,
          admin,
          'GET',
          `/api/backoffice/audit?action=sign-in.failure${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(answer.status, answer.text).toBe(200);
        const body = answer.json<{ entries: { id: string; action: string }[]; nextCursor: string | null }>();
        pages.push(body.entries.map((entry) => entry.id));
        for (const entry of body.entries) expect(entry.action).toBe('sign-in.failure');
        cursor = body.nextCursor;
      } while (cursor);
      const ids = pages.flat().map(Number);
      expect(ids.length).toBeGreaterThanOrEqual(8);
      expect([...ids].sort((a, b) => b - a)).toStrictEqual(ids);
      const byActor = await asOperator(
        ctx,
        admin,
        'GET',
        `/api/backoffice/audit?actor=${admin.id}&action=operator.update`,
      );
      expect(byActor.json<{ entries: unknown[] }>().entries).toHaveLength(1);
      const future = await asOperator(ctx, admin, 'GET', '/api/backoffice/audit?from=2030-01-01T00:00:00Z');
      expect(future.json<{ entries: unknown[]; nextCursor: null }>()).toStrictEqual({ entries: [], nextCursor: null });
      const bad = await asOperator(ctx, admin, 'GET', '/api/backoffice/audit?cursor=abc');
      expect(bad.status).toBe(400);

      const csv = await asOperator(ctx, admin, 'GET', '/api/backoffice/audit.csv?action=sign-in.failure');
      expect(csv.status).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers['content-disposition']).toBe('attachment; filename="auditoria.csv"');
      const lines = csv.text.trimEnd().split('\r\n');
      expect(lines[0]).toBe(
        'id,at,actorLabel,actorOperatorId,actorApiKeyId,ip,action,targetType,targetId,before,after',
      );
      expect(lines.slice(1).map((line) => Number(line.split(',')[0]))).toStrictEqual(ids);
    });

    it('the console’s date fields search by Chile days: `from` at the day’s start, `to` through its end', async () => {
      const [newest] = await ctx.app.db.select().from(auditEntries).orderBy(desc(auditEntries.id)).limit(1);
      if (!newest) throw new Error('The trail is empty');
      const day = chileDateOf(newest.at);
      const firstId = async (query: string) => {
        const answer = await asOperator(ctx, admin, 'GET', `/api/backoffice/audit?${query}`);
        expect(answer.status, answer.text).toBe(200);
        return answer.json<{ entries: { id: string }[] }>().entries[0]?.id;
      };
      expect(await firstId(`from=${day}&to=${day}`)).toBe(String(newest.id));
      expect(await firstId(`from=${addDays(day, 1)}`)).toBeUndefined();
      expect(await firstId(`to=${addDays(day, -1)}`)).not.toBe(String(newest.id));
      const csv = await asOperator(ctx, admin, 'GET', `/api/backoffice/audit.csv?from=${day}&to=${day}`);
      expect(csv.status).toBe(200);
      const bad = await asOperator(ctx, admin, 'GET', '/api/backoffice/audit?from=2026-13-01');
      expect(bad.status).toBe(400);
    });

    it('a value typed at sign-in cannot become a spreadsheet formula in the export', async () => {
      await signInStep(ctx, '=HYPERLINK("http://x")@x.cl', 'x', '10.7.0.1');
      const csv = await asOperator(ctx, admin, 'GET', '/api/backoffice/audit.csv?action=sign-in.failure');
      expect(csv.text).toContain(`"'=HYPERLINK(""http://x"")@x.cl"`);
    });
  },
  {},
  { now: clock.now },
);
