import QRCode from 'qrcode';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError, type FieldError } from '#app/errors.ts';
import { emailHtml } from '#app/integrations/mail/email-html.ts';
import { type Mailer, mailFailureFields } from '#app/integrations/mail/mailer.ts';
import { configuredOrigin } from '#app/lib/security/origins.ts';
import { type AuditActor, type AuditRecord, recordAudit } from '../audit/service.ts';
import { enqueue, type JobHandler } from '../jobs/service.ts';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.ts';
import * as repository from './repository.ts';
import {
  csrfTokenOf,
  decryptSecret,
  encryptSecret,
  matchingTotpStep,
  newRecoveryCode,
  newTotpSecret,
  normalisedRecoveryCode,
  type OperatorKeys,
  operatorKeys,
  randomToken,
  tokenHash,
  totpOf,
} from './secrets.ts';

/**
 * The console's roles (issue 24): `content` is for part 2 (catalogue and content editing), `pricing` for prices and
 * discount codes (issue 25).
 */
export const roleList = ['admin', 'support', 'finance', 'content', 'pricing'] as const;
export type Role = (typeof roleList)[number];
export const operatorStates = ['invited', 'active', 'deactivated'] as const;
export type OperatorState = (typeof operatorStates)[number];

export const enrolmentTtlMs = 24 * 60 * 60 * 1000;
export const challengeTtlMs = 5 * 60 * 1000;
export const sessionIdleMs = 30 * 60 * 1000;
export const sessionAbsoluteMs = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most once a minute per session (the idle timeout is counted in minutes anyway). */
const touchEveryMs = 60_000;
export const recoveryCodeCount = 10;

/** Sign-in throttling: failures per account (known or not) and per client in 15 minutes, then a 15-minute lock. */
export const throttleRules = {
  account: { max: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
  client: { max: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
} as const;

export const messages = {
  badCredentials: 'Correo o contraseña incorrectos.',
  badSecondFactor: 'El código no es válido o la verificación venció. Vuelve a ingresar.',
  locked: 'Demasiados intentos fallidos. Espera unos minutos antes de volver a intentarlo.',
  invalidLink: 'El enlace de registro no es válido, ya se usó o venció. Pide uno nuevo a un administrador.',
  signInRequired: 'Tu sesión terminó o no has ingresado. Ingresa de nuevo.',
  forbidden: 'No tienes permiso para esta acción.',
  csrf: 'La solicitud no trae el token de seguridad de la consola o viene de otro origen.',
  invalidInput: 'Revisa los datos ingresados.',
  notFound: 'No encontrado.',
  emailTaken: 'Ya existe un operador con ese correo.',
  wrongTotp: 'El código no coincide. Revisa la hora de tu teléfono y usa el código actual.',
  stale: 'Otro administrador cambió este operador recién. Vuelve a cargarlo.',
  lastAdmin: 'Debe quedar al menos un administrador activo.',
  deactivated: 'El operador está desactivado: reactívalo antes de restablecer sus factores.',
} as const;

/** What everything here needs: the database, the operators' keys, and the clock (tests move it). */
export type OperatorDeps = { db: Database; keys: OperatorKeys; now: () => Date };

export function operatorDeps(db: Database, secretsKey: string, now: () => Date = () => new Date()): OperatorDeps {
  return { db, keys: operatorKeys(secretsKey), now };
}

/** Where a request comes from, for sessions and the trail. */
export type Client = { ip: string; userAgent: string };

export type OperatorView = { id: string; email: string; name: string | null; roles: Role[]; state: OperatorState };
export type OperatorDetail = OperatorView & { version: number; createdAt: Date; updatedAt: Date };

export const operatorView = (row: repository.OperatorRow): OperatorView => ({
  id: row.id,
  email: row.email,
  name: row.name,
  roles: row.roles as Role[],
  state: row.state as OperatorState,
});

const operatorDetail = (row: repository.OperatorRow): OperatorDetail => ({
  ...operatorView(row),
  version: row.version,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const actorOf = (operator: repository.OperatorRow, ip: string | null): AuditActor => ({
  operatorId: operator.id,
  label: operator.email,
  ip,
});

function audit(db: Database, actor: AuditActor, record: AuditRecord, at: Date) {
  return recordAudit(db, actor, record, at);
}

/** The console's origin for links and the CSRF Origin check: BACKOFFICE_ORIGIN, else PUBLIC_URL, else http://localhost:PORT. */
export const consoleOrigin = (config: {
  backoffice: { origin: string | undefined };
  publicUrl: string | undefined;
  port: number;
}) => config.backoffice.origin ?? configuredOrigin(config);

/** The enrolment link of a token: `<origin>/backoffice/enrolar/<token>`. */
export const enrolmentUrl = (origin: string, token: string) => `${origin}/backoffice/enrolar/${token}`;

/** Issues a new enrolment link (24 h) with a new TOTP secret; older links of the operator die. Answers the token. */
async function issueEnrolment(deps: OperatorDeps, tx: Database, operatorId: string, at: Date): Promise<string> {
  const token = randomToken();
  await repository.replaceEnrolment(
    tx,
    {
      tokenHash: tokenHash(token),
      operatorId,
      totpSecret: encryptSecret(deps.keys.encryption, newTotpSecret()),
      expiresAt: new Date(at.getTime() + enrolmentTtlMs),
      createdAt: at,
    },
    at,
  );
  return token;
}

const normalisedEmail = (email: string) => email.trim();

/** Invites an operator (state `invited`) and answers the one-time enrolment token. 409 when the e-mail is taken. */
export async function inviteOperator(
  deps: OperatorDeps,
  actor: AuditActor,
  input: { email: string; name?: string | null; roles: Role[] },
): Promise<{ operator: OperatorDetail; token: string }> {
  const at = deps.now();
  return deps.db.transaction(async (tx) => {
    const row = await repository.insertOperator(tx, {
      id: crypto.randomUUID(),
      email: normalisedEmail(input.email),
      name: input.name ?? null,
      roles: [...new Set(input.roles)],
      state: 'invited',
      createdAt: at,
      updatedAt: at,
    });
    if (!row) {
      throw new ApiError(409, messages.emailTaken, [
        { field: 'email', code: 'duplicate', message: messages.emailTaken },
      ]);
    }
    const token = await issueEnrolment(deps, tx, row.id, at);
    await audit(
      tx,
      actor,
      { action: 'operator.invite', targetType: 'operator', targetId: row.id, before: null, after: operatorView(row) },
      at,
    );
    return { operator: operatorDetail(row), token };
  });
}

const invalidLink = () => new ApiError(404, messages.invalidLink);

/** What the enrolment page shows: the e-mail, the roles and the TOTP secret (text, otpauth URL, QR as SVG). */
export async function enrolmentOf(deps: OperatorDeps, token: string) {
  const enrolment = await repository.findLiveEnrolment(deps.db, tokenHash(token), deps.now());
  const operator = enrolment && (await repository.findOperator(deps.db, enrolment.operatorId));
  if (!enrolment || !operator || operator.state === 'deactivated') throw invalidLink();
  const secret = decryptSecret(deps.keys.encryption, enrolment.totpSecret);
  const otpauthUrl = totpOf(secret, operator.email).toString();
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { email: operator.email, roles: operator.roles as Role[], totp: { secret, otpauthUrl, qrSvg } };
}

export type NewSession = { id: string; token: string; createdAt: Date; expiresAt: Date };

async function openSession(tx: Database, operatorId: string, client: Client, at: Date): Promise<NewSession> {
  const token = randomToken();
  const session = {
    id: crypto.randomUUID(),
    tokenHash: tokenHash(token),
    operatorId,
    createdAt: at,
    lastSeenAt: at,
    expiresAt: new Date(at.getTime() + sessionAbsoluteMs),
    ip: client.ip,
    userAgent: client.userAgent.slice(0, 500),
  };
  await repository.insertSession(tx, session);
  return { id: session.id, token, createdAt: at, expiresAt: session.expiresAt };
}

/**
 * Completes an enrolment: name, a password the estimator accepts, and a TOTP code from the secret shown. Activates
 * the operator, replaces the recovery codes (answered once, in clear) and opens a session. The link works once: of
 * two requests at once, one wins and the other is the link's 404.
 */
export async function completeEnrolment(
  deps: OperatorDeps,
  token: string,
  input: { name: string; password: string; totpCode: string },
  client: Client,
) {
  const at = deps.now();
  const hash = tokenHash(token);
  const enrolment = await repository.findLiveEnrolment(deps.db, hash, at);
  const operator = enrolment && (await repository.findOperator(deps.db, enrolment.operatorId));
  if (!enrolment || !operator || operator.state === 'deactivated') throw invalidLink();
  const secret = decryptSecret(deps.keys.encryption, enrolment.totpSecret);
  const errors: FieldError[] = [];
  const weak = passwordProblem(input.password, [operator.email, input.name]);
  if (weak) errors.push(weak);
  const step = matchingTotpStep(secret, input.totpCode.trim(), at);
  if (step === null) errors.push({ field: 'totpCode', code: 'invalid_code', message: messages.wrongTotp });
  if (errors.length > 0) throw new ApiError(400, messages.invalidInput, errors);
  const passwordHash = await hashPassword(input.password);
  const recoveryCodes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
  return deps.db.transaction(async (tx) => {
    if (!(await repository.consumeEnrolment(tx, hash, at))) throw invalidLink();
    const updated = await repository.updateOperator(
      tx,
      operator.id,
      {
        name: input.name.trim(),
        passwordHash,
        totpSecret: encryptSecret(deps.keys.encryption, secret),
        totpLastStep: step,
        state: 'active',
      },
      at,
    );
    if (!updated) throw invalidLink();
    await repository.replaceRecoveryCodes(tx, operator.id, recoveryCodes.map(tokenHash));
    const session = await openSession(tx, operator.id, client, at);
    await audit(
      tx,
      actorOf(updated, client.ip),
      {
        action: 'operator.enrol',
        targetType: 'operator',
        targetId: operator.id,
        before: { ...operatorView(operator), factors: operator.totpSecret ? ['password', 'totp'] : [] },
        after: { ...operatorView(updated), factors: ['password', 'totp'], recoveryCodes: recoveryCodeCount },
      },
      at,
    );
    return { operator: operatorView(updated), recoveryCodes, session };
  });
}

const badCredentials = () => new ApiError(401, messages.badCredentials);
const lockedError = (until: Date, at: Date) =>
  new ApiError(429, messages.locked, [], Math.max(1, Math.ceil((until.getTime() - at.getTime()) / 1000)));

const accountKey = (email: string) => `account:${tokenHash(email.trim().toLowerCase())}`;
const clientKey = (ip: string) => `client:${ip}`;

/** The later lock of the two keys still in force at `at`, if any. */
async function lockedUntil(db: Database, keys: string[], at: Date): Promise<Date | undefined> {
  const rows = await Promise.all(keys.map((key) => repository.findThrottle(db, key)));
  const ends = rows.map((row) => row?.lockedUntil).filter((end): end is Date => !!end && end > at);
  return ends.sort((a, b) => b.getTime() - a.getTime())[0];
}

export const lockoutEmailKind = 'operator-lockout-email';

/**
 * Counts a failed sign-in against the account (known or not) and the client. When it locks the account: one
 * `sign-in.lockout` row and, for a real operator, an e-mail to them.
 */
async function countFailedSignIn(
  deps: OperatorDeps,
  email: string,
  client: Client,
  operator: repository.OperatorRow | undefined,
  at: Date,
) {
  await deps.db.transaction(async (tx) => {
    const account = await repository.countFailure(tx, accountKey(email), at, throttleRules.account);
    await repository.countFailure(tx, clientKey(client.ip), at, throttleRules.client);
    if (!account.lockedNow) return;
    const actor: AuditActor = operator ? actorOf(operator, client.ip) : { label: email.slice(0, 254), ip: client.ip };
    await audit(
      tx,
      actor,
      {
        action: 'sign-in.lockout',
        targetType: 'operator',
        targetId: operator?.id ?? null,
        after: { lockedUntil: account.row?.lockedUntil?.toISOString() ?? null },
      },
      at,
    );
    if (operator) await enqueue(tx, lockoutEmailKind, { operatorId: operator.id, at: at.toISOString() });
  });
}

/**
 * The first step of a sign-in: e-mail and password. Answers a challenge (5 minutes) for the second factor. A wrong
 * password, an unknown account, an invited or deactivated one: the same 401, after the same Argon2id work.
 */
export async function signIn(deps: OperatorDeps, input: { email: string; password: string }, client: Client) {
  const at = deps.now();
  const lock = await lockedUntil(deps.db, [accountKey(input.email), clientKey(client.ip)], at);
  if (lock) throw lockedError(lock, at);
  const operator = await repository.findOperatorByEmail(deps.db, input.email.trim());
  const usable = operator?.state === 'active' ? operator : undefined;
  const matches = await verifyPassword(usable?.passwordHash ?? null, input.password);
  if (!usable || !matches) {
    await audit(
      deps.db,
      operator ? actorOf(operator, client.ip) : { label: input.email.slice(0, 254), ip: client.ip },
      {
        action: 'sign-in.failure',
        targetType: 'operator',
        targetId: operator?.id ?? null,
        after: { step: 'password' },
      },
      at,
    );
    await countFailedSignIn(deps, input.email, client, operator, at);
    throw badCredentials();
  }
  const challenge = randomToken();
  await repository.insertChallenge(deps.db, {
    tokenHash: tokenHash(challenge),
    operatorId: usable.id,
    expiresAt: new Date(at.getTime() + challengeTtlMs),
  });
  return { step: 'second-factor' as const, challenge };
}

/**
 * The second step: a TOTP code (each accepted once) or a recovery code (each usable once). Opens the session. Of
 * two requests using one challenge or one recovery code at once, exactly one wins.
 */
export async function secondFactor(deps: OperatorDeps, input: { challenge: string; code: string }, client: Client) {
  const at = deps.now();
  const hash = tokenHash(input.challenge);
  const challenge = await repository.findLiveChallenge(deps.db, hash, at);
  const operator = challenge && (await repository.findOperator(deps.db, challenge.operatorId));
  if (!challenge || !operator || operator.state !== 'active' || !operator.totpSecret) {
    throw new ApiError(401, messages.badSecondFactor);
  }
  const lock = await lockedUntil(deps.db, [accountKey(operator.email), clientKey(client.ip)], at);
  if (lock) throw lockedError(lock, at);
  const secret = decryptSecret(deps.keys.encryption, operator.totpSecret);
  const code = input.code.trim();
  const result = await deps.db
    .transaction(async (tx) => {
      if (!(await repository.consumeChallenge(tx, hash, at))) return undefined;
      let method: 'totp' | 'recovery-code';
      let recoveryCodesLeft: number | undefined;
      const step = matchingTotpStep(secret, code, at);
      if (step !== null) {
        if (!(await repository.acceptTotpStep(tx, operator.id, step))) throw new SecondFactorRefused();
        method = 'totp';
      } else {
        const recovery = normalisedRecoveryCode(code);
        const left =
          recovery === null ? null : await repository.useRecoveryCode(tx, operator.id, tokenHash(recovery), at);
        if (left === null) throw new SecondFactorRefused();
        method = 'recovery-code';
        recoveryCodesLeft = left;
      }
      const session = await openSession(tx, operator.id, client, at);
      await audit(
        tx,
        actorOf(operator, client.ip),
        {
          action: 'sign-in',
          targetType: 'session',
          targetId: session.id,
          after: { method, ...(recoveryCodesLeft === undefined ? {} : { recoveryCodesLeft }) },
        },
        at,
      );
      return session;
    })
    .catch((error: unknown) => {
      if (error instanceof SecondFactorRefused) return null;
      throw error;
    });
  if (result === undefined) throw new ApiError(401, messages.badSecondFactor);
  if (result === null) {
    await repository.countChallengeFailure(deps.db, hash);
    await audit(
      deps.db,
      actorOf(operator, client.ip),
      { action: 'sign-in.failure', targetType: 'operator', targetId: operator.id, after: { step: 'second-factor' } },
      at,
    );
    await countFailedSignIn(deps, operator.email, client, operator, at);
    throw new ApiError(401, messages.badSecondFactor);
  }
  await repository.clearThrottle(deps.db, accountKey(operator.email));
  return { operator: operatorView(operator), session: result };
}

class SecondFactorRefused extends Error {}

/** A signed-in operator, as the guard finds them from the session cookie. */
export type SignedIn = {
  operator: repository.OperatorRow;
  session: repository.SessionRow;
  csrfToken: string;
};

/**
 * The operator behind a session token, or undefined: revoked, idle for 30 minutes, older than 12 hours, or its
 * operator no longer active (a deactivation ends every session at once, even before the revocation is written).
 */
export async function authenticateSession(deps: OperatorDeps, token: string): Promise<SignedIn | undefined> {
  const at = deps.now();
  const found = await repository.findSessionWithOperator(deps.db, tokenHash(token));
  if (!found) return undefined;
  const { session, operator } = found;
  if (session.revokedAt || operator.state !== 'active') return undefined;
  if (at >= session.expiresAt || at.getTime() - session.lastSeenAt.getTime() >= sessionIdleMs) return undefined;
  if (at.getTime() - session.lastSeenAt.getTime() >= touchEveryMs)
    await repository.touchSession(deps.db, session.id, at);
  return { operator, session, csrfToken: csrfTokenOf(deps.keys, token) };
}

export async function signOut(deps: OperatorDeps, signedIn: SignedIn, ip: string) {
  const at = deps.now();
  await deps.db.transaction(async (tx) => {
    if (!(await repository.revokeSession(tx, signedIn.operator.id, signedIn.session.id, at))) return;
    await audit(
      tx,
      actorOf(signedIn.operator, ip),
      { action: 'session.sign-out', targetType: 'session', targetId: signedIn.session.id },
      at,
    );
  });
}

export async function listSessions(deps: OperatorDeps, signedIn: SignedIn) {
  const rows = await repository.listLiveSessions(deps.db, signedIn.operator.id, deps.now());
  const idleLimit = deps.now().getTime() - sessionIdleMs;
  return rows
    .filter((row) => row.lastSeenAt.getTime() > idleLimit)
    .map((row) => ({
      id: row.id,
      current: row.id === signedIn.session.id,
      createdAt: row.createdAt,
      lastSeenAt: row.lastSeenAt,
      ip: row.ip,
      userAgent: row.userAgent,
    }));
}

/** Ends one of the operator's own sessions; 404 when it is not theirs or already ended. */
export async function revokeOwnSession(deps: OperatorDeps, signedIn: SignedIn, sessionId: string, ip: string) {
  const at = deps.now();
  await deps.db.transaction(async (tx) => {
    if (!(await repository.revokeSession(tx, signedIn.operator.id, sessionId, at))) {
      throw new ApiError(404, messages.notFound);
    }
    await audit(
      tx,
      actorOf(signedIn.operator, ip),
      {
        action: 'session.revoke',
        targetType: 'session',
        targetId: sessionId,
        before: { revoked: false },
        after: { revoked: true },
      },
      at,
    );
  });
}

export async function listOperators(deps: OperatorDeps): Promise<OperatorDetail[]> {
  return (await repository.listOperators(deps.db)).map(operatorDetail);
}

/**
 * An administrator changes an operator's roles or state. With `version`, only if nobody changed the operator since
 * (409 `stale` otherwise: of two administrators at once, one wins). Deactivating ends the operator's sessions in the
 * same transaction. At least one active administrator always remains.
 */
export async function changeOperator(
  deps: OperatorDeps,
  actor: AuditActor,
  id: string,
  input: { roles?: Role[]; state?: 'active' | 'deactivated'; version?: number },
): Promise<OperatorDetail> {
  const at = deps.now();
  return deps.db.transaction(async (tx) => {
    const before = await repository.findOperator(tx, id);
    if (!before) throw new ApiError(404, messages.notFound);
    const roles = input.roles ? [...new Set(input.roles)] : (before.roles as Role[]);
    let state = (input.state ?? before.state) as OperatorState;
    // An invited operator stays invited until enrolment; «active» for them means «not deactivated».
    if (state === 'active' && before.state === 'invited') state = 'invited';
    if (state === 'active' && before.state === 'deactivated' && !before.totpSecret) state = 'invited';
    const losesAdmin =
      before.state === 'active' && before.roles.includes('admin') && (state !== 'active' || !roles.includes('admin'));
    if (losesAdmin && (await repository.countActiveWithRole(tx, 'admin', id)) === 0) {
      throw new ApiError(409, messages.lastAdmin, [{ field: 'roles', code: 'invalid', message: messages.lastAdmin }]);
    }
    const after = await repository.updateOperator(tx, id, { roles, state }, at, input.version);
    if (!after) {
      throw new ApiError(409, messages.stale, [{ field: 'version', code: 'stale', message: messages.stale }]);
    }
    const sessionsEnded = state === 'deactivated' ? await repository.revokeAllSessions(tx, id, at) : 0;
    await audit(
      tx,
      actor,
      {
        action: 'operator.update',
        targetType: 'operator',
        targetId: id,
        before: operatorView(before),
        after: { ...operatorView(after), ...(sessionsEnded > 0 ? { sessionsEnded } : {}) },
      },
      at,
    );
    return operatorDetail(after);
  });
}

/**
 * Resets an operator's factors: password, TOTP and recovery codes are cleared, every session ends, the operator is
 * `invited` again and a new enrolment link (24 h) is answered.
 */
export async function resetFactors(deps: OperatorDeps, actor: AuditActor, id: string): Promise<string> {
  const at = deps.now();
  return deps.db.transaction(async (tx) => {
    const before = await repository.findOperator(tx, id);
    if (!before) throw new ApiError(404, messages.notFound);
    if (before.state === 'deactivated') {
      throw new ApiError(409, messages.deactivated, [
        { field: 'state', code: 'invalid_transition', message: messages.deactivated },
      ]);
    }
    if (
      before.state === 'active' &&
      before.roles.includes('admin') &&
      (await repository.countActiveWithRole(tx, 'admin', id)) === 0
    ) {
      throw new ApiError(409, messages.lastAdmin, [{ field: 'roles', code: 'invalid', message: messages.lastAdmin }]);
    }
    const after = await repository.updateOperator(
      tx,
      id,
      { passwordHash: null, totpSecret: null, totpLastStep: null, state: 'invited' },
      at,
    );
    if (!after) throw new ApiError(404, messages.notFound);
    await repository.replaceRecoveryCodes(tx, id, []);
    const sessionsEnded = await repository.revokeAllSessions(tx, id, at);
    const token = await issueEnrolment(deps, tx, id, at);
    await audit(
      tx,
      actor,
      {
        action: 'operator.reset-factors',
        targetType: 'operator',
        targetId: id,
        before: { ...operatorView(before), factors: before.totpSecret ? ['password', 'totp'] : [] },
        after: { ...operatorView(after), factors: [], sessionsEnded },
      },
      at,
    );
    return token;
  });
}

/** The e-mail an operator gets when their account is locked after repeated failed sign-ins. */
export function lockoutEmailJob(db: Database, mailer: Mailer): JobHandler<{ operatorId: string; at: string }> {
  return {
    payload: z.object({ operatorId: z.uuid(), at: z.iso.datetime() }),
    logFields: ({ operatorId }) => ({ operatorId }),
    errorFields: mailFailureFields,
    async run({ operatorId, at }) {
      const operator = await repository.findOperator(db, operatorId);
      if (!operator) return { sent: false };
      const when = new Date(at).toLocaleString('es-CL', { timeZone: 'America/Santiago' });
      const lines = [
        `Tu cuenta de la consola de Travesía quedó bloqueada por 15 minutos el ${when} tras varios intentos fallidos de ingreso.`,
        'Si fuiste tú, espera y vuelve a intentarlo. Si no fuiste tú, avisa a un administrador: alguien podría estar probando tu contraseña.',
      ];
      await mailer.send({
        to: [operator.email],
        subject: 'Aviso de seguridad: cuenta de la consola bloqueada',
        text: `Hola,\n\n${lines.join('\n\n')}`,
        html: await emailHtml({
          brand: 'Travesía',
          title: 'Aviso de seguridad: cuenta de la consola bloqueada',
          preview: lines[0] ?? '',
          blocks: [{ type: 'text', text: 'Hola,' }, ...lines.map((text) => ({ type: 'text' as const, text }))],
        }),
        attachments: [],
      });
      return { sent: true };
    },
  };
}

export type ApiKeyView = {
  id: string;
  name: string;
  roles: Role[];
  prefix: string;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

const apiKeyView = (row: repository.ApiKeyRow): ApiKeyView => ({
  id: row.id,
  name: row.name,
  roles: row.roles as Role[],
  prefix: row.prefix,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
  lastUsedAt: row.lastUsedAt,
  revokedAt: row.revokedAt,
});

/** An API key's secret: `tvk_` and 256 random bits. The prefix tells a leaked one apart in secret scanners. */
export const apiKeyPrefix = 'tvk_';

/** Creates an API key; its secret is answered once and stored only as its SHA-256. */
export async function createApiKey(
  deps: OperatorDeps,
  actor: AuditActor,
  input: { name: string; roles: Role[]; expiresAt: Date },
): Promise<{ apiKey: ApiKeyView; secret: string }> {
  const at = deps.now();
  if (input.expiresAt <= at) {
    const message = 'La fecha de vencimiento debe ser futura.';
    throw new ApiError(400, messages.invalidInput, [{ field: 'expiresAt', code: 'out_of_range', message }]);
  }
  const secret = `${apiKeyPrefix}${randomToken()}`;
  return deps.db.transaction(async (tx) => {
    const row = await repository.insertApiKey(tx, {
      id: crypto.randomUUID(),
      name: input.name.trim(),
      roles: [...new Set(input.roles)],
      secretHash: tokenHash(secret),
      prefix: secret.slice(0, apiKeyPrefix.length + 6),
      createdBy: actor.operatorId ?? null,
      createdAt: at,
      expiresAt: input.expiresAt,
    });
    await audit(
      tx,
      actor,
      { action: 'api-key.create', targetType: 'api-key', targetId: row.id, before: null, after: apiKeyView(row) },
      at,
    );
    return { apiKey: apiKeyView(row), secret };
  });
}

export async function listApiKeys(deps: OperatorDeps): Promise<ApiKeyView[]> {
  return (await repository.listApiKeys(deps.db)).map(apiKeyView);
}

export async function revokeApiKey(deps: OperatorDeps, actor: AuditActor, id: string): Promise<void> {
  const at = deps.now();
  await deps.db.transaction(async (tx) => {
    const row = await repository.revokeApiKey(tx, id, at);
    if (!row) throw new ApiError(404, messages.notFound);
    await audit(
      tx,
      actor,
      {
        action: 'api-key.revoke',
        targetType: 'api-key',
        targetId: id,
        before: { ...apiKeyView(row), revokedAt: null },
        after: apiKeyView(row),
      },
      at,
    );
  });
}

/** The live API key a Bearer secret names (not revoked, not expired), its last use recorded; else undefined. */
/**
 * The live API key a Bearer secret names (id, name, roles), or undefined: what the admin API's guard asks
 * (`app.apiKeyOf`, lib/security/admin-token.ts), in the server and in the worker's own metrics server alike.
 */
export const apiKeyLookup =
  (deps: OperatorDeps) =>
  async (secret: string): Promise<Pick<ApiKeyView, 'id' | 'name' | 'roles'> | undefined> => {
    const key = await authenticateApiKey(deps, secret);
    return key && { id: key.id, name: key.name, roles: key.roles };
  };

export async function authenticateApiKey(deps: OperatorDeps, secret: string): Promise<ApiKeyView | undefined> {
  if (!secret.startsWith(apiKeyPrefix) || secret.length > 100) return undefined;
  const at = deps.now();
  const row = await repository.findApiKeyBySecretHash(deps.db, tokenHash(secret));
  if (!row || row.revokedAt || row.expiresAt <= at) return undefined;
  if (!row.lastUsedAt || at.getTime() - row.lastUsedAt.getTime() >= touchEveryMs) {
    await repository.touchApiKey(deps.db, row.id, at);
  }
  return apiKeyView(row);
}
