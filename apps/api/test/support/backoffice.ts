import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import { inviteOperator, operatorDeps, type Role } from '#app/modules/operators/service.ts';
import type { TestContext } from './harness.ts';
import { type Answer, call } from './http.ts';

/** The operator console's test helpers (issue 24): a movable clock, enrolment and sign-in as the console does them. */

/** A clock the app reads (BuildAppOptions.now): tests move it instead of waiting. */
export class TestClock {
  at = new Date('2026-11-27T15:00:00.000Z');
  now = () => new Date(this.at);
  advance(ms: number) {
    this.at = new Date(this.at.getTime() + ms);
  }
}

export const minute = 60_000;
/** A password the strength estimator accepts (a passphrase of uncommon words). */
export const strongPassword = 'murciélago tetera violín 47 acantilado';

/** The current TOTP code of a base32 secret at the clock's time; `steps` moves it by 30-second steps. */
export function totpCode(secret: string, clock: TestClock, steps = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: clock.at.getTime() + steps * 30_000 });
}

/** A console caller: its session cookie, its CSRF token and its TOTP secret. */
export type Operator = {
  id: string;
  email: string;
  cookie: string;
  csrfToken: string;
  secret: string;
  recoveryCodes: string[];
};

/** The session cookie a console answer sets (`travesia_operator=…` outside production). */
export function sessionCookieOf(answer: Answer): string {
  const header = answer.headers['set-cookie'];
  const value = (Array.isArray(header) ? header : [header]).find((c) => String(c).startsWith('travesia_operator='));
  if (!value) throw new Error(`no session cookie in ${answer.status} ${answer.text}`);
  return String(value).split(';')[0] as string;
}

/** Invites as the CLI does (no HTTP), answering the enrolment token. */
export async function invite(ctx: TestContext, email: string, roles: Role[], clock: TestClock) {
  const deps = operatorDeps(ctx.app.db, ctx.config.backoffice.secretsKey, clock.now);
  const { operator, token } = await inviteOperator(deps, { label: 'cli:test', ip: null }, { email, roles });
  return { id: operator.id, token };
}

/** Opens an enrolment link, scans its secret, completes it; the clock moves a step so the code is fresh for later. */
export async function enrolWith(ctx: TestContext, token: string, email: string, clock: TestClock): Promise<Operator> {
  const page = await call(ctx.app, { method: 'GET', url: `/api/backoffice/enrolment/${token}` });
  expect(page.status, page.text).toBe(200);
  const { totp } = page.json<{ totp: { secret: string } }>();
  const done = await call(ctx.app, {
    method: 'POST',
    url: `/api/backoffice/enrolment/${token}`,
    payload: { name: email.split('@')[0], password: strongPassword, totpCode: totpCode(totp.secret, clock) },
  });
  expect(done.status, done.text).toBe(200);
  const body = done.json<{ recoveryCodes: string[]; operator: { id: string }; csrfToken: string }>();
  clock.advance(30_000);
  return {
    id: body.operator.id,
    email,
    cookie: sessionCookieOf(done),
    csrfToken: body.csrfToken,
    secret: totp.secret,
    recoveryCodes: body.recoveryCodes,
  };
}

/** Invites and enrols an operator with `roles`, signed in. */
export async function enrolledOperator(ctx: TestContext, email: string, roles: Role[], clock: TestClock) {
  const { token } = await invite(ctx, email, roles, clock);
  return enrolWith(ctx, token, email, clock);
}

export const signInStep = (ctx: TestContext, email: string, password: string, remoteAddress = '127.0.0.1') =>
  call(ctx.app, { method: 'POST', url: '/api/backoffice/sign-in', payload: { email, password }, remoteAddress });

export const secondFactorStep = (ctx: TestContext, challenge: string, code: string, remoteAddress = '127.0.0.1') =>
  call(ctx.app, {
    method: 'POST',
    url: '/api/backoffice/sign-in/second-factor',
    payload: { challenge, code },
    remoteAddress,
  });

/** Signs in with the password and a fresh TOTP code (the clock moves a step after). */
export async function signedIn(ctx: TestContext, operator: Operator, clock: TestClock): Promise<Operator> {
  const first = await signInStep(ctx, operator.email, strongPassword);
  expect(first.status, first.text).toBe(200);
  const { challenge } = first.json<{ challenge: string }>();
  const second = await secondFactorStep(ctx, challenge, totpCode(operator.secret, clock));
  expect(second.status, second.text).toBe(200);
  clock.advance(30_000);
  return { ...operator, cookie: sessionCookieOf(second), csrfToken: second.json<{ csrfToken: string }>().csrfToken };
}

/** A console request as the signed-in operator: cookie, and the CSRF token on state-changing methods. */
export function asOperator(
  ctx: TestContext,
  operator: Pick<Operator, 'cookie' | 'csrfToken'> | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return call(ctx.app, {
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    headers: {
      ...(operator ? { cookie: operator.cookie } : {}),
      ...(operator && method !== 'GET' ? { 'x-csrf-token': operator.csrfToken } : {}),
      ...headers,
    },
  });
}
