import { and, asc, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import {
  operatorApiKeys,
  operatorChallenges,
  operatorEnrolments,
  operatorRecoveryCodes,
  operatorSessions,
  operatorSignInThrottles,
  operators,
} from './tables.ts';

/** The operators module's reads and writes; nothing else touches its tables. */
export type OperatorRow = typeof operators.$inferSelect;
export type SessionRow = typeof operatorSessions.$inferSelect;
export type ApiKeyRow = typeof operatorApiKeys.$inferSelect;
export type EnrolmentRow = typeof operatorEnrolments.$inferSelect;

export async function findOperatorByEmail(db: Database, email: string): Promise<OperatorRow | undefined> {
  const [row] = await db.select().from(operators).where(sql`lower(${operators.email}) = lower(${email})`);
  return row;
}

export async function findOperator(db: Database, id: string): Promise<OperatorRow | undefined> {
  const [row] = await db.select().from(operators).where(eq(operators.id, id));
  return row;
}

export function listOperators(db: Database): Promise<OperatorRow[]> {
  return db.select().from(operators).orderBy(asc(operators.email));
}

/** Inserts an operator; undefined when the e-mail (whatever its case) is taken. */
export async function insertOperator(
  db: Database,
  values: typeof operators.$inferInsert,
): Promise<OperatorRow | undefined> {
  const [row] = await db.insert(operators).values(values).onConflictDoNothing().returning();
  return row;
}

/** Changes an operator if its version is still `version` (or whatever it is, without one); answers the new row. */
export async function updateOperator(
  db: Database,
  id: string,
  changes: Partial<Pick<OperatorRow, 'name' | 'roles' | 'state' | 'passwordHash' | 'totpSecret' | 'totpLastStep'>>,
  at: Date,
  version?: number,
): Promise<OperatorRow | undefined> {
  const [row] = await db
    .update(operators)
    .set({ ...changes, version: sql`${operators.version} + 1`, updatedAt: at })
    .where(version === undefined ? eq(operators.id, id) : and(eq(operators.id, id), eq(operators.version, version)))
    .returning();
  return row;
}

/** How many active operators hold `role`, other than `exceptId`. */
export async function countActiveWithRole(db: Database, role: string, exceptId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(operators)
    .where(
      and(eq(operators.state, 'active'), sql`${role} = ANY(${operators.roles})`, sql`${operators.id} <> ${exceptId}`),
    );
  return row?.count ?? 0;
}

/** Accepts a TOTP step only if it is after the last one accepted: of two uses of one code, one wins. */
export async function acceptTotpStep(db: Database, operatorId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(operators)
    .set({ totpLastStep: step })
    .where(and(eq(operators.id, operatorId), or(isNull(operators.totpLastStep), lt(operators.totpLastStep, step))))
    .returning({ id: operators.id });
  return rows.length === 1;
}

/** A new enrolment link for an operator; the operator's older unused links die with it. */
export async function replaceEnrolment(db: Database, values: typeof operatorEnrolments.$inferInsert, at: Date) {
  await db
    .update(operatorEnrolments)
    .set({ usedAt: at })
    .where(and(eq(operatorEnrolments.operatorId, values.operatorId), isNull(operatorEnrolments.usedAt)));
  await db.insert(operatorEnrolments).values(values);
}

export async function findLiveEnrolment(db: Database, hash: string, at: Date): Promise<EnrolmentRow | undefined> {
  const [row] = await db
    .select()
    .from(operatorEnrolments)
    .where(
      and(
        eq(operatorEnrolments.tokenHash, hash),
        isNull(operatorEnrolments.usedAt),
        gt(operatorEnrolments.expiresAt, at),
      ),
    );
  return row;
}

/** Marks a live enrolment link used; false when another request used it first (or it expired meanwhile). */
export async function consumeEnrolment(db: Database, hash: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(operatorEnrolments)
    .set({ usedAt: at })
    .where(
      and(
        eq(operatorEnrolments.tokenHash, hash),
        isNull(operatorEnrolments.usedAt),
        gt(operatorEnrolments.expiresAt, at),
      ),
    )
    .returning({ tokenHash: operatorEnrolments.tokenHash });
  return rows.length === 1;
}

export async function replaceRecoveryCodes(db: Database, operatorId: string, hashes: string[]) {
  await db.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.operatorId, operatorId));
  if (hashes.length === 0) return;
  await db
    .insert(operatorRecoveryCodes)
    .values(hashes.map((codeHash) => ({ id: crypto.randomUUID(), operatorId, codeHash })));
}

/** Uses a recovery code once: of two uses at once, one wins. Answers how many unused codes are left, or null. */
export async function useRecoveryCode(
  db: Database,
  operatorId: string,
  codeHash: string,
  at: Date,
): Promise<number | null> {
  const used = await db
    .update(operatorRecoveryCodes)
    .set({ usedAt: at })
    .where(
      and(
        eq(operatorRecoveryCodes.operatorId, operatorId),
        eq(operatorRecoveryCodes.codeHash, codeHash),
        isNull(operatorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: operatorRecoveryCodes.id });
  if (used.length !== 1) return null;
  const [left] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(operatorRecoveryCodes)
    .where(and(eq(operatorRecoveryCodes.operatorId, operatorId), isNull(operatorRecoveryCodes.usedAt)));
  return left?.count ?? 0;
}

export async function insertChallenge(db: Database, values: typeof operatorChallenges.$inferInsert) {
  await db.insert(operatorChallenges).values(values);
}

export const maxChallengeAttempts = 5;

export async function findLiveChallenge(db: Database, hash: string, at: Date) {
  const [row] = await db
    .select()
    .from(operatorChallenges)
    .where(
      and(
        eq(operatorChallenges.tokenHash, hash),
        isNull(operatorChallenges.usedAt),
        gt(operatorChallenges.expiresAt, at),
        lt(operatorChallenges.attempts, maxChallengeAttempts),
      ),
    );
  return row;
}

/** Marks a challenge used; false when another request used it first. */
export async function consumeChallenge(db: Database, hash: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(operatorChallenges)
    .set({ usedAt: at })
    .where(and(eq(operatorChallenges.tokenHash, hash), isNull(operatorChallenges.usedAt)))
    .returning({ tokenHash: operatorChallenges.tokenHash });
  return rows.length === 1;
}

export async function countChallengeFailure(db: Database, hash: string) {
  await db
    .update(operatorChallenges)
    .set({ attempts: sql`${operatorChallenges.attempts} + 1` })
    .where(eq(operatorChallenges.tokenHash, hash));
}

export async function insertSession(db: Database, values: typeof operatorSessions.$inferInsert) {
  await db.insert(operatorSessions).values(values);
}

export async function findSessionWithOperator(db: Database, hash: string) {
  const [row] = await db
    .select({ session: operatorSessions, operator: operators })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(eq(operatorSessions.tokenHash, hash));
  return row;
}

export async function touchSession(db: Database, id: string, at: Date) {
  await db.update(operatorSessions).set({ lastSeenAt: at }).where(eq(operatorSessions.id, id));
}

export function listLiveSessions(db: Database, operatorId: string, at: Date): Promise<SessionRow[]> {
  return db
    .select()
    .from(operatorSessions)
    .where(
      and(
        eq(operatorSessions.operatorId, operatorId),
        isNull(operatorSessions.revokedAt),
        gt(operatorSessions.expiresAt, at),
      ),
    )
    .orderBy(desc(operatorSessions.lastSeenAt));
}

/** Revokes one live session of an operator; false when it is not theirs or already ended. */
export async function revokeSession(db: Database, operatorId: string, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(operatorSessions)
    .set({ revokedAt: at })
    .where(
      and(eq(operatorSessions.id, id), eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.revokedAt)),
    )
    .returning({ id: operatorSessions.id });
  return rows.length === 1;
}

/** Ends every live session of an operator at once (deactivation, factor reset); answers how many. */
export async function revokeAllSessions(db: Database, operatorId: string, at: Date): Promise<number> {
  const rows = await db
    .update(operatorSessions)
    .set({ revokedAt: at })
    .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.revokedAt)))
    .returning({ id: operatorSessions.id });
  return rows.length;
}

export async function findThrottle(db: Database, key: string) {
  const [row] = await db.select().from(operatorSignInThrottles).where(eq(operatorSignInThrottles.key, key));
  return row;
}

/**
 * Counts one failure for `key` atomically: a window older than `windowMs` starts again at 1. Past `max` failures in
 * the window the key is locked until `at + lockMs`. Answers the row and whether this failure started the lock.
 */
export async function countFailure(
  db: Database,
  key: string,
  at: Date,
  rule: { max: number; windowMs: number; lockMs: number },
) {
  const windowStart = new Date(at.getTime() - rule.windowMs);
  const lockUntil = new Date(at.getTime() + rule.lockMs);
  const t = operatorSignInThrottles;
  const [row] = await db
    .insert(t)
    .values({ key, failures: 1, windowStartedAt: at, lockedUntil: rule.max <= 1 ? lockUntil : null })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures: sql`CASE WHEN ${t.windowStartedAt} < ${windowStart} THEN 1 ELSE ${t.failures} + 1 END`,
        windowStartedAt: sql`CASE WHEN ${t.windowStartedAt} < ${windowStart} THEN ${at} ELSE ${t.windowStartedAt} END`,
        lockedUntil: sql`CASE WHEN ${t.windowStartedAt} >= ${windowStart} AND ${t.failures} + 1 >= ${rule.max}
          AND (${t.lockedUntil} IS NULL OR ${t.lockedUntil} <= ${at}) THEN ${lockUntil} ELSE ${t.lockedUntil} END`,
      },
    })
    .returning();
  const locked = row?.lockedUntil?.getTime() === lockUntil.getTime();
  return { row, lockedNow: locked };
}

export async function clearThrottle(db: Database, key: string) {
  await db.delete(operatorSignInThrottles).where(eq(operatorSignInThrottles.key, key));
}

export async function insertApiKey(db: Database, values: typeof operatorApiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [row] = await db.insert(operatorApiKeys).values(values).returning();
  if (!row) throw new Error('The API key was not stored');
  return row;
}

export function listApiKeys(db: Database): Promise<ApiKeyRow[]> {
  return db.select().from(operatorApiKeys).orderBy(desc(operatorApiKeys.createdAt));
}

export async function findApiKeyBySecretHash(db: Database, hash: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db.select().from(operatorApiKeys).where(eq(operatorApiKeys.secretHash, hash));
  return row;
}

export async function touchApiKey(db: Database, id: string, at: Date) {
  await db.update(operatorApiKeys).set({ lastUsedAt: at }).where(eq(operatorApiKeys.id, id));
}

export async function revokeApiKey(db: Database, id: string, at: Date): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .update(operatorApiKeys)
    .set({ revokedAt: at })
    .where(and(eq(operatorApiKeys.id, id), isNull(operatorApiKeys.revokedAt)))
    .returning();
  return row;
}
