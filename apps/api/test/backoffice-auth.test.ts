import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, jobs, operators } from '#app/db/schema.ts';
import { lockoutEmailKind, messages, recoveryCodeCount } from '#app/modules/operators/service.ts';
import { runOperatorsCli } from '#app/operators-cli.ts';
import { runRefundsCli } from '#app/refunds-cli.ts';
import {
  asOperator,
  enrolledOperator,
  enrolWith,
  minute,
  type Operator,
  secondFactorStep,
  signedIn,
  signInStep,
  strongPassword,
  TestClock,
  totpCode,
} from './support/backoffice.ts';
import { useTemporaryDataDir } from './support/checkout.ts';
import { captured, cliEnvironment } from './support/cli.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { call, jsonWithoutRequestId } from './support/http.ts';
import { type FakeSmtp, startFakeSmtp } from './support/smtp.ts';

/**
 * The operator console's people and access (issue 24): enrolment with TOTP, sign-in with a second factor, recovery
 * codes, throttling and lockout, the same answer for unknown accounts, session timeouts, deactivation, CSRF.
 */

const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);
let smtp: FakeSmtp;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  await smtp?.close();
});

const clock = new TestClock();

describeOnEachDatabase(
  'Operator console: enrolment, sign-in and sessions',
  (ctx) => {
    let admin: Operator;

    it('the CLI invites the first administrator and prints the one-time enrolment link', async () => {
      const printed: string[] = [];
      const log = console.log;
      console.log = (line: string) => printed.push(line);
      try {
        const code = await runOperatorsCli(
          ['invite', '--role', 'admin', '--email', 'Ana@Travesia.cl', '--name', 'Ana'],
          {
            db: ctx.app.db,
            config: ctx.config,
          },
        );
        expect(code).toBe(0);
      } finally {
        console.log = log;
      }
      const link = printed.find((line) => line.includes('/backoffice/enrolar/'));
      expect(link).toMatch(/^http:\/\/localhost:\d+\/backoffice\/enrolar\/[A-Za-z0-9_-]{43}$/);
      // The same e-mail in another case is the same operator.
      const refused: string[] = [];
      const error = console.error;
      console.error = (line: string) => refused.push(line);
      try {
        const again = await runOperatorsCli(['invite', '--role', 'admin', '--email', 'ana@travesia.cl'], {
          db: ctx.app.db,
          config: ctx.config,
        });
        expect(again).toBe(1);
      } finally {
        console.error = error;
      }
      expect(refused).toStrictEqual(['Error: Ya existe un operador con ese correo.']);
      const token = String(link).split('/').at(-1) as string;

      // Enrolment end to end: the page shows the secret and a QR; a weak password and a wrong code are field errors.
      const page = await call(ctx.app, { method: 'GET', url: `/api/backoffice/enrolment/${token}` });
      expect(page.status).toBe(200);
      const shown = page.json<{
        email: string;
        roles: string[];
        totp: { secret: string; otpauthUrl: string; qrSvg: string };
      }>();
      expect(shown.email).toBe('Ana@Travesia.cl');
      expect(shown.roles).toStrictEqual(['admin']);
      expect(shown.totp.otpauthUrl).toContain(`secret=${shown.totp.secret}`);
      expect(shown.totp.qrSvg).toMatch(/^<svg/);
      const weak = await call(ctx.app, {
        method: 'POST',
        url: `/api/backoffice/enrolment/${token}`,
        payload: { name: 'Ana', password: 'contraseña123', totpCode: '000000' },
      });
      expect(weak.status).toBe(400);
      const errors = weak.json<{ errors: { field: string; code: string; message: string }[] }>().errors;
      expect(errors.map((e) => [e.field, e.code])).toStrictEqual([
        ['password', 'weak_password'],
        ['totpCode', 'invalid_code'],
      ]);
      expect(errors[0]?.message).toMatch(/contraseña/);
      const short = await call(ctx.app, {
        method: 'POST',
        url: `/api/backoffice/enrolment/${token}`,
        payload: { name: 'Ana', password: 'Xk9#qz!Lw2', totpCode: totpCode(shown.totp.secret, clock) },
      });
      expect(short.json<{ errors: { message: string }[] }>().errors[0]?.message).toBe(
        'La contraseña debe tener al menos 12 caracteres.',
      );
      admin = await enrolWith(ctx, token, 'Ana@Travesia.cl', clock);
      expect(admin.recoveryCodes).toHaveLength(recoveryCodeCount);
      expect(new Set(admin.recoveryCodes).size).toBe(recoveryCodeCount);
      // The link works once.
      const reused = await call(ctx.app, { method: 'GET', url: `/api/backoffice/enrolment/${token}` });
      expect(reused.status).toBe(404);
      const me = await asOperator(ctx, admin, 'GET', '/api/backoffice/me');
      expect(me.status).toBe(200);
      expect(me.json()).toMatchObject({
        operator: { email: 'Ana@Travesia.cl', name: 'Ana', roles: ['admin'], state: 'active' },
        csrfToken: admin.csrfToken,
      });
    });

    it('once an administrator is active, the CLI invites only through the API with an admin key, audited as the key', async () => {
      const opened = { db: ctx.app.db, config: ctx.config };
      const invite = (email: string, cliEnv: NodeJS.ProcessEnv = {}) =>
        captured(() => runOperatorsCli(['invite', '--role', 'support', '--email', email], opened, cliEnv));
      // Without a key: the database path is for the first administrator only.
      const refused = await invite('invitado-cli@travesia.cl');
      expect(refused).toMatchObject({ code: 1, out: '' });
      expect(refused.err).toContain('«Operadores»');
      expect(refused.err).toContain('TRAVESIA_API_KEY');
      // A key without the role admin, or one that is not a key: refused by the API in words.
      const support = await cliEnvironment(ctx, ['support'], 'soporte-cli');
      const forbidden = await invite('invitado-cli@travesia.cl', support.env);
      expect(forbidden).toMatchObject({ code: 1, out: '' });
      expect(forbidden.err).toContain(messages.forbidden);
      expect(forbidden.err).toContain('lacks the role');
      const wrong = await invite('invitado-cli@travesia.cl', { ...support.env, TRAVESIA_API_KEY: 'tvk_not-a-key' });
      expect(wrong).toMatchObject({ code: 1, out: '' });
      expect(wrong.err).toContain('TRAVESIA_API_KEY was refused');
      expect(wrong.err).toContain('«Claves API»');
      const operatorsBefore = await ctx.app.db.select({ id: operators.id }).from(operators);
      expect(operatorsBefore).toHaveLength(1);
      // An admin key: invited through the console API, one audit row with the key as the actor.
      const { env: adminEnv, apiKey } = await cliEnvironment(ctx, ['admin'], 'admin-cli');
      const invited = await invite('invitado-cli@travesia.cl', adminEnv);
      expect(invited.err).toBe('');
      expect(invited.code).toBe(0);
      expect(invited.out).toContain('Invited invitado-cli@travesia.cl (support)');
      expect(invited.out).toMatch(/\/backoffice\/enrolar\/[A-Za-z0-9_-]{43}$/);
      const rows = await ctx.app.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.actorApiKeyId, apiKey.id), eq(auditEntries.action, 'operator.invite')));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ actorLabel: 'api-key:admin-cli', before: null });
      expect(rows[0]?.after).toMatchObject({ email: 'invitado-cli@travesia.cl', roles: ['support'] });
    });

    it('sign-in takes the password, then a TOTP code; a code is accepted once', async () => {
      const first = await signInStep(ctx, 'ana@travesia.cl', strongPassword);
      expect(first.status, first.text).toBe(200);
      const { step, challenge } = first.json<{ step: string; challenge: string }>();
      expect(step).toBe('second-factor');
      const code = totpCode(admin.secret, clock);
      const second = await secondFactorStep(ctx, challenge, code);
      expect(second.status, second.text).toBe(200);
      expect(String(second.headers['set-cookie'])).toMatch(
        /^travesia_operator=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/,
      );
      // The challenge is spent, and the same code on a new challenge is a replay.
      expect((await secondFactorStep(ctx, challenge, code)).status).toBe(401);
      const again = await signInStep(ctx, 'ana@travesia.cl', strongPassword);
      expect((await secondFactorStep(ctx, again.json<{ challenge: string }>().challenge, code)).status).toBe(401);
      clock.advance(30_000);
    });

    it('a recovery code signs in once, in any case and with or without its hyphen', async () => {
      const code = admin.recoveryCodes[0] as string;
      const first = await signInStep(ctx, admin.email, strongPassword);
      const used = await secondFactorStep(
        ctx,
        first.json<{ challenge: string }>().challenge,
        code.toUpperCase().replace('-', ''),
      );
      expect(used.status, used.text).toBe(200);
      const second = await signInStep(ctx, admin.email, strongPassword);
      const reused = await secondFactorStep(ctx, second.json<{ challenge: string }>().challenge, code);
      expect(reused.status).toBe(401);
      expect(reused.json()).toMatchObject({ detail: messages.badSecondFactor });
    });

    it('a wrong password and an unknown account get the same answer, after similar work', async () => {
      const known = await signInStep(ctx, admin.email, 'not the password at all', '10.0.0.1');
      const unknown = await signInStep(ctx, 'nadie@travesia.cl', 'not the password at all', '10.0.0.1');
      expect(known.status).toBe(401);
      expect(jsonWithoutRequestId(known)).toStrictEqual(jsonWithoutRequestId(unknown));
      expect(known.json()).toMatchObject({ detail: 'Correo o contraseña incorrectos.' });
      // Both verify an Argon2id hash: the unknown account is not answered measurably faster.
      const time = async (email: string, address: string) => {
        const started = performance.now();
        await signInStep(ctx, email, 'otra clave equivocada', address);
        return performance.now() - started;
      };
      const knownTimes: number[] = [];
      const unknownTimes: number[] = [];
      for (let round = 0; round < 3; round++) {
        unknownTimes.push(await time(`nadie${round}@travesia.cl`, `10.0.1.${round}`));
        knownTimes.push(await time(admin.email, `10.0.2.${round}`));
      }
      const median = (values: number[]) => values.sort((a, b) => a - b)[1] as number;
      // Skipping the hash answers in ~1 ms against ~50 ms: a ratio far under 0.2. A loaded CI machine (two test
      // workers, other jobs) spread honest samples to ~0.3, so 0.2 tells the two apart without flaking.
      expect(median(unknownTimes)).toBeGreaterThan(median(knownTimes) * 0.2);
      expect(median(knownTimes)).toBeGreaterThan(median(unknownTimes) * 0.2);
      clock.advance(16 * minute); // the failures' window passes
    });

    it('five failures lock the account for 15 minutes (429 with Retry-After, even with the right password) and e-mail the operator', async () => {
      const victim = await enrolledOperator(ctx, 'beto@travesia.cl', ['support'], clock);
      for (let attempt = 1; attempt <= 5; attempt++) {
        const failed = await signInStep(ctx, victim.email, `clave equivocada ${attempt}`, `10.1.0.${attempt}`);
        expect(failed.status).toBe(401);
      }
      const locked = await signInStep(ctx, victim.email, strongPassword, '10.1.1.1');
      expect(locked.status).toBe(429);
      expect(locked.headers['retry-after']).toBe('900');
      // An unknown account locks the same way: the lockout tells nothing.
      for (let attempt = 1; attempt <= 5; attempt++)
        await signInStep(ctx, 'fantasma@travesia.cl', 'x', `10.2.0.${attempt}`);
      const ghost = await signInStep(ctx, 'fantasma@travesia.cl', 'x', '10.2.1.1');
      expect(jsonWithoutRequestId(ghost)).toStrictEqual(jsonWithoutRequestId(locked));
      // Only the real operator is e-mailed.
      const queued = await ctx.app.db.select().from(jobs).where(sql`${jobs.kind} = ${lockoutEmailKind}`);
      const lockouts = queued.map((job) => (job.payload as { operatorId: string }).operatorId);
      expect(lockouts.filter((id) => id === victim.id)).toHaveLength(1);
      // The administrator's own earlier failures (a spent recovery code, wrong passwords) locked them once too.
      expect(lockouts.filter((id) => id !== victim.id && id !== admin.id)).toStrictEqual([]);
      const mailBefore = smtp.received.length;
      await ctx.app.runJobs();
      const mail = smtp.received.slice(mailBefore).filter((m) => m.to.includes('beto@travesia.cl'));
      expect(mail).toHaveLength(1);
      expect(mail[0]?.parsed.subject).toBe('Aviso de seguridad: cuenta de la consola bloqueada');
      clock.advance(15 * minute + 1_000);
      await signedIn(ctx, victim, clock);
    });

    it('twenty failures from one client lock that client, whatever the accounts', async () => {
      for (let attempt = 1; attempt <= 20; attempt++) {
        expect((await signInStep(ctx, `prueba${attempt}@travesia.cl`, 'x', '10.9.9.9')).status).toBe(401);
      }
      expect((await signInStep(ctx, admin.email, strongPassword, '10.9.9.9')).status).toBe(429);
      expect((await signInStep(ctx, admin.email, strongPassword, '10.9.9.8')).status).toBe(200);
    });

    it('a session ends after 30 idle minutes, and after 12 hours however active', async () => {
      const idle = await signedIn(ctx, admin, clock);
      clock.advance(29 * minute);
      expect((await asOperator(ctx, idle, 'GET', '/api/backoffice/me')).status).toBe(200);
      clock.advance(30 * minute);
      const expired = await asOperator(ctx, idle, 'GET', '/api/backoffice/me');
      expect(expired.status).toBe(401);
      expect(expired.json()).toMatchObject({ detail: messages.signInRequired });

      const busy = await signedIn(ctx, admin, clock);
      const started = clock.at.getTime();
      while (clock.at.getTime() - started < 12 * 60 * minute - 25 * minute) {
        clock.advance(25 * minute);
        expect((await asOperator(ctx, busy, 'GET', '/api/backoffice/me')).status).toBe(200);
      }
      clock.advance(25 * minute);
      expect((await asOperator(ctx, busy, 'GET', '/api/backoffice/me')).status).toBe(401);
    });

    it('sessions are listed and revocable; signing out ends the session and clears the cookie', async () => {
      const one = await signedIn(ctx, admin, clock);
      const two = await signedIn(ctx, admin, clock);
      const listed = await asOperator(ctx, one, 'GET', '/api/backoffice/sessions');
      const sessions = listed.json<{ sessions: { id: string; current: boolean; ip: string }[] }>().sessions;
      expect(sessions.filter((s) => s.current)).toHaveLength(1);
      const twoId = (await asOperator(ctx, two, 'GET', '/api/backoffice/me')).json<{ session: { id: string } }>()
        .session.id;
      expect((await asOperator(ctx, one, 'DELETE', `/api/backoffice/sessions/${twoId}`)).status).toBe(204);
      expect((await asOperator(ctx, two, 'GET', '/api/backoffice/me')).status).toBe(401);
      expect((await asOperator(ctx, one, 'DELETE', `/api/backoffice/sessions/${twoId}`)).status).toBe(404);
      const out = await asOperator(ctx, one, 'POST', '/api/backoffice/sign-out');
      expect(out.status).toBe(204);
      expect(String(out.headers['set-cookie'])).toMatch(/^travesia_operator=; .*Max-Age=0/);
      expect((await asOperator(ctx, one, 'GET', '/api/backoffice/me')).status).toBe(401);
    });

    it('deactivating an operator ends their sessions at once; they cannot sign in again', async () => {
      admin = await signedIn(ctx, admin, clock);
      const carla = await enrolledOperator(ctx, 'carla@travesia.cl', ['finance'], clock);
      expect((await asOperator(ctx, carla, 'GET', '/api/backoffice/today')).status).toBe(200);
      const off = await asOperator(ctx, admin, 'PATCH', `/api/backoffice/operators/${carla.id}`, {
        state: 'deactivated',
      });
      expect(off.status, off.text).toBe(200);
      expect((await asOperator(ctx, carla, 'GET', '/api/backoffice/today')).status).toBe(401);
      expect((await signInStep(ctx, carla.email, strongPassword, '10.3.0.1')).status).toBe(401);
      // The last active administrator cannot be demoted or deactivated.
      const alone = await asOperator(ctx, admin, 'PATCH', `/api/backoffice/operators/${admin.id}`, {
        roles: ['support'],
      });
      expect(alone.status).toBe(409);
    });

    it('a factor reset ends the sessions and sends the operator through enrolment again', async () => {
      const dani = await enrolledOperator(ctx, 'dani@travesia.cl', ['support'], clock);
      const reset = await asOperator(ctx, admin, 'POST', `/api/backoffice/operators/${dani.id}/reset-factors`);
      expect(reset.status, reset.text).toBe(200);
      const link = reset.json<{ enrolmentUrl: string }>().enrolmentUrl;
      expect((await asOperator(ctx, dani, 'GET', '/api/backoffice/me')).status).toBe(401);
      expect((await signInStep(ctx, dani.email, strongPassword, '10.4.0.1')).status).toBe(401);
      const again = await enrolWith(ctx, link.split('/').at(-1) as string, dani.email, clock);
      expect(again.secret).not.toBe(dani.secret);
      expect((await asOperator(ctx, again, 'GET', '/api/backoffice/me')).status).toBe(200);
    });

    it('CSRF: a state-changing request without the token, with another token, or from a foreign Origin is refused', async () => {
      const session = await signedIn(ctx, admin, clock);
      const url = '/api/backoffice/operators';
      const body = { email: 'eva@travesia.cl', roles: ['support'] };
      const withoutToken = await call(ctx.app, {
        method: 'POST',
        url,
        payload: body,
        headers: { cookie: session.cookie },
      });
      expect(withoutToken.status).toBe(403);
      expect(withoutToken.json()).toMatchObject({ detail: messages.csrf });
      const otherToken = await asOperator(ctx, { ...session, csrfToken: admin.csrfToken.slice(1) }, 'POST', url, body);
      expect(otherToken.status).toBe(403);
      const foreign = await asOperator(ctx, session, 'POST', url, body, { origin: 'https://evil.example' });
      expect(foreign.status).toBe(403);
      const foreignSignIn = await call(ctx.app, {
        method: 'POST',
        url: '/api/backoffice/sign-in',
        payload: { email: admin.email, password: strongPassword },
        headers: { origin: 'https://evil.example' },
      });
      expect(foreignSignIn.status).toBe(403);
      const own = await asOperator(ctx, session, 'POST', url, body, { origin: `http://localhost:${ctx.config.port}` });
      expect(own.status, own.text).toBe(201);
      expect(own.json<{ enrolmentUrl: string }>().enrolmentUrl).toMatch(
        new RegExp(`^http://localhost:${ctx.config.port}/backoffice/enrolar/`),
      );
    });

    it('the session cookie is never cached and every console answer says no-store', async () => {
      const page = await call(ctx.app, { method: 'GET', url: '/api/backoffice/me' });
      expect(page.status).toBe(401);
      expect(page.headers['cache-control']).toBe('no-store');
    });
  },
  env,
  { now: clock.now },
);

describe('operators CLI', () => {
  it('refuses an unknown role or a missing e-mail with its usage', async () => {
    const errors: string[] = [];
    const error = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      expect(await runOperatorsCli(['invite', '--role', 'root', '--email', 'x@y.cl'])).toBe(1);
      expect(await runOperatorsCli(['invite', '--role', 'admin'])).toBe(1);
    } finally {
      console.error = error;
    }
    expect(errors.join('\n')).toMatch(/Unknown role: root/);
    expect(errors.join('\n')).toMatch(/npm run operators -- invite/);
  });
});

describe('refunds CLI without an API key', () => {
  it('says how to make one and exits 1, before reaching any server', async () => {
    const answer = await captured(() => runRefundsCli(['sale-refunds'], { TRAVESIA_API_URL: 'http://127.0.0.1:9' }));
    expect(answer).toMatchObject({ code: 1, out: '' });
    expect(answer.err).toContain('TRAVESIA_API_KEY is not set');
    expect(answer.err).toContain('«Claves API»');
  });

  it('says the server cannot be reached, in words', async () => {
    const env = { TRAVESIA_API_URL: 'http://127.0.0.1:9', TRAVESIA_API_KEY: 'tvk_whatever' };
    const answer = await captured(() => runRefundsCli(['status', 'R-ABCDEFGH', 'en_revision'], env));
    expect(answer).toMatchObject({ code: 1, out: '' });
    expect(answer.err).toContain('Could not reach the API at http://127.0.0.1:9');
  });
});
