import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { enqueue } from '#app/modules/jobs/service.ts';
import { purchaseAccessCodes, purchaseAccessLimits, purchaseAccessTokens, purchaseAccessVersions } from './tables.ts';

/** The job that tells the buyer a daily cap of «Mi compra» codes was hit; payload `{ saleId, day }`. */
export const accessCapEmailKind = 'purchase-access-cap';

const limitsRow = (saleId: number, holder: string, day: string) =>
  and(
    eq(purchaseAccessLimits.saleId, saleId),
    eq(purchaseAccessLimits.holder, holder),
    eq(purchaseAccessLimits.day, day),
  );

/** Queues the buyer's cap e-mail in `tx`: once per sale and day, whichever cap was hit first. */
const queueCapNotice = (tx: Database, saleId: number, day: string) =>
  enqueue(tx, accessCapEmailKind, { saleId, day }, `purchase-access-cap:${saleId}:${day}`);

/**
 * Counts a code about to be issued for the sale's holder on `day`, unless `cap` were issued to them already; at the cap, the buyer's
 * notice is queued instead (once a day). Answers whether a code may be issued. One upsert: concurrent runs never
 * count past the cap.
 */
export async function countIssuedCode(
  db: Database,
  code: { saleId: number; holder: string; day: string },
  cap: number,
): Promise<boolean> {
  const { saleId, holder, day } = code;
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const counted = await tx
      .insert(purchaseAccessLimits)
      .values({ saleId, holder, day, codesIssued: 1 })
      .onConflictDoUpdate({
        target: [purchaseAccessLimits.saleId, purchaseAccessLimits.holder, purchaseAccessLimits.day],
        set: { codesIssued: sql`${purchaseAccessLimits.codesIssued} + 1` },
        setWhere: sql`${purchaseAccessLimits.codesIssued} < ${cap}`,
      })
      .returning({ codesIssued: purchaseAccessLimits.codesIssued });
    if (counted.length > 0) return true;
    await queueCapNotice(tx, saleId, day);
    return false;
  });
}

/** Stores a new code of a sale's holder; their older unused ones die with it (only the newest one e-mailed opens). */
export async function replaceCode(db: Database, saleId: number, holder: string, codeHash: string, expiresAt: Date) {
  await db.transaction(async (tx) => {
    await tx
      .update(purchaseAccessCodes)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(purchaseAccessCodes.saleId, saleId),
          eq(purchaseAccessCodes.holder, holder),
          isNull(purchaseAccessCodes.usedAt),
        ),
      );
    await tx.insert(purchaseAccessCodes).values({ saleId, holder, codeHash, expiresAt });
  });
}

/**
 * Checks a code against the holder's live one, under the lock of the holder's row of the day (every try counts one by
 * one, also across a PostgreSQL pool): once `limits.failedTriesPerDay` wrong tries of this holder were counted that
 * day no code of theirs opens anything; otherwise a match uses the code up, and a miss (or no live code) counts an
 * attempt of the code and a wrong try of the holder, the one that reaches the cap queueing the buyer's notice. Each
 * holder has a bucket of her own: a traveller's tries (or anyone's with her document) never lock the buyer out.
 * Answers whether it matched.
 */
export async function consumeCode(
  db: Database,
  code: { saleId: number; holder: string; day: string },
  matches: (codeHash: string) => boolean,
  limits: { maxAttempts: number; failedTriesPerDay: number },
): Promise<boolean> {
  const { saleId, holder, day } = code;
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    await tx.insert(purchaseAccessLimits).values({ saleId, holder, day }).onConflictDoNothing();
    const [today] = await tx
      .select({ failedTries: purchaseAccessLimits.failedTries })
      .from(purchaseAccessLimits)
      .where(limitsRow(saleId, holder, day))
      .for('update');
    if ((today?.failedTries ?? 0) >= limits.failedTriesPerDay) return false;
    const [live] = await tx
      .select()
      .from(purchaseAccessCodes)
      .where(
        and(
          eq(purchaseAccessCodes.saleId, saleId),
          eq(purchaseAccessCodes.holder, holder),
          isNull(purchaseAccessCodes.usedAt),
          gt(purchaseAccessCodes.expiresAt, sql`now()`),
        ),
      )
      .orderBy(desc(purchaseAccessCodes.id))
      .limit(1)
      .for('update');
    const usable = live && live.attempts < limits.maxAttempts ? live : undefined;
    if (usable && matches(usable.codeHash)) {
      await tx.update(purchaseAccessCodes).set({ usedAt: sql`now()` }).where(eq(purchaseAccessCodes.id, usable.id));
      return true;
    }
    if (usable) {
      await tx
        .update(purchaseAccessCodes)
        .set({ attempts: sql`${purchaseAccessCodes.attempts} + 1` })
        .where(eq(purchaseAccessCodes.id, usable.id));
    }
    const [counted] = await tx
      .update(purchaseAccessLimits)
      .set({ failedTries: sql`${purchaseAccessLimits.failedTries} + 1` })
      .where(limitsRow(saleId, holder, day))
      .returning({ failedTries: purchaseAccessLimits.failedTries });
    if ((counted?.failedTries ?? 0) >= limits.failedTriesPerDay) await queueCapNotice(tx, saleId, day);
    return false;
  });
}

/** Marks the day's cap notice of a sale sent (the job's record; the dedupe key already makes it once a day). */
export async function markCapNoticeSent(db: Database, saleId: number, day: string) {
  await db
    .update(purchaseAccessLimits)
    .set({ capNoticeSentAt: sql`now()` })
    .where(and(eq(purchaseAccessLimits.saleId, saleId), eq(purchaseAccessLimits.day, day)));
}

export async function insertToken(db: Database, saleId: number, holder: string, tokenHash: string, expiresAt: Date) {
  await db.insert(purchaseAccessTokens).values({ saleId, holder, tokenHash, expiresAt });
}

/** The sale and holder a live (unexpired, unrevoked) token opens, or undefined. */
export async function accessOfToken(
  db: Database,
  tokenHash: string,
): Promise<{ saleId: number; holder: string } | undefined> {
  const [row] = await db
    .select({ saleId: purchaseAccessTokens.saleId, holder: purchaseAccessTokens.holder })
    .from(purchaseAccessTokens)
    .where(
      and(
        eq(purchaseAccessTokens.tokenHash, tokenHash),
        isNull(purchaseAccessTokens.revokedAt),
        gt(purchaseAccessTokens.expiresAt, sql`now()`),
      ),
    );
  return row;
}

export async function revokeToken(db: Database, tokenHash: string) {
  await db
    .update(purchaseAccessTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(purchaseAccessTokens.tokenHash, tokenHash), isNull(purchaseAccessTokens.revokedAt)));
}

/** The version a sale's links must carry: 1 until a revocation raised it. */
export async function linkVersion(db: Database, saleId: number): Promise<number> {
  const [row] = await db
    .select({ version: purchaseAccessVersions.linkVersion })
    .from(purchaseAccessVersions)
    .where(eq(purchaseAccessVersions.saleId, saleId));
  return row?.version ?? 1;
}

/** Kills every link e-mailed so far (version + 1), every open access token and every live code of the sale. */
export async function revokeSale(db: Database, saleId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(purchaseAccessVersions)
      .values({ saleId, linkVersion: 2 })
      .onConflictDoUpdate({
        target: purchaseAccessVersions.saleId,
        set: { linkVersion: sql`${purchaseAccessVersions.linkVersion} + 1`, updatedAt: sql`now()` },
      })
      .returning({ version: purchaseAccessVersions.linkVersion });
    await tx
      .update(purchaseAccessTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(purchaseAccessTokens.saleId, saleId), isNull(purchaseAccessTokens.revokedAt)));
    await tx
      .update(purchaseAccessCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(purchaseAccessCodes.saleId, saleId), isNull(purchaseAccessCodes.usedAt)));
    return row?.version ?? 2;
  });
}
