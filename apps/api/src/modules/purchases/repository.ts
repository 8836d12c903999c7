import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { purchaseAccessCodes, purchaseAccessTokens, purchaseAccessVersions } from './tables.ts';

/** Stores a new code of a sale; older unused ones die with it (only the newest code e-mailed opens the purchase). */
export async function replaceCode(db: Database, saleId: number, codeHash: string, expiresAt: Date) {
  await db.transaction(async (tx) => {
    await tx
      .update(purchaseAccessCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(purchaseAccessCodes.saleId, saleId), isNull(purchaseAccessCodes.usedAt)));
    await tx.insert(purchaseAccessCodes).values({ saleId, codeHash, expiresAt });
  });
}

/**
 * Checks a code against the sale's live one under a row lock (concurrent tries count one by one): a match uses it
 * up, a miss counts an attempt. Answers whether it matched.
 */
export async function consumeCode(
  db: Database,
  saleId: number,
  matches: (codeHash: string) => boolean,
  maxAttempts: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [live] = await tx
      .select()
      .from(purchaseAccessCodes)
      .where(
        and(
          eq(purchaseAccessCodes.saleId, saleId),
          isNull(purchaseAccessCodes.usedAt),
          gt(purchaseAccessCodes.expiresAt, sql`now()`),
        ),
      )
      .orderBy(desc(purchaseAccessCodes.id))
      .limit(1)
      .for('update');
    if (!live || live.attempts >= maxAttempts) return false;
    if (matches(live.codeHash)) {
      await tx.update(purchaseAccessCodes).set({ usedAt: sql`now()` }).where(eq(purchaseAccessCodes.id, live.id));
      return true;
    }
    await tx
      .update(purchaseAccessCodes)
      .set({ attempts: sql`${purchaseAccessCodes.attempts} + 1` })
      .where(eq(purchaseAccessCodes.id, live.id));
    return false;
  });
}

export async function insertToken(db: Database, saleId: number, tokenHash: string, expiresAt: Date) {
  await db.insert(purchaseAccessTokens).values({ saleId, tokenHash, expiresAt });
}

/** The sale a live (unexpired, unrevoked) token opens, or undefined. */
export async function saleOfToken(db: Database, tokenHash: string): Promise<number | undefined> {
  const [row] = await db
    .select({ saleId: purchaseAccessTokens.saleId })
    .from(purchaseAccessTokens)
    .where(
      and(
        eq(purchaseAccessTokens.tokenHash, tokenHash),
        isNull(purchaseAccessTokens.revokedAt),
        gt(purchaseAccessTokens.expiresAt, sql`now()`),
      ),
    );
  return row?.saleId;
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
