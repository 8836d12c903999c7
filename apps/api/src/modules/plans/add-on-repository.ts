import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { addOns } from './tables.ts';

/** The add-ons' queries for the console's «Adicionales» (plans module; issue 27 §1). */

export type AddOnRow = typeof addOns.$inferSelect;
export type NewAddOn = typeof addOns.$inferInsert;
export type AddOnChanges = Partial<Omit<NewAddOn, 'id' | 'companyId' | 'version' | 'createdAt' | 'updatedAt'>>;

const ofAddOn = (companyId: number, id: number) => and(eq(addOns.companyId, companyId), eq(addOns.id, id));

export function listAddOns(db: Database, companyId: number) {
  return db.select().from(addOns).where(eq(addOns.companyId, companyId)).orderBy(asc(addOns.sortOrder), asc(addOns.id));
}

export async function findAddOn(db: Database, companyId: number, id: number) {
  const [row] = await db.select().from(addOns).where(ofAddOn(companyId, id));
  return row;
}

/** The add-on's row, locked for the caller's transaction: a concurrent save waits here and then sees the new version. */
export async function lockAddOn(tx: Database, companyId: number, id: number) {
  const [row] = await tx.select().from(addOns).where(ofAddOn(companyId, id)).for('update');
  return row;
}

/** The new row, or undefined when the company already has an add-on with that code. */
export async function insertAddOn(tx: Database, values: NewAddOn) {
  const [row] = await tx.insert(addOns).values(values).onConflictDoNothing().returning();
  return row;
}

/** Whether another add-on of the company has the code. */
export async function codeTaken(db: Database, companyId: number, code: string, exceptId: number) {
  const [row] = await db
    .select({ id: addOns.id })
    .from(addOns)
    .where(and(eq(addOns.companyId, companyId), eq(addOns.code, code), sql`${addOns.id} <> ${exceptId}`));
  return row !== undefined;
}

/** Writes an add-on the caller locked and whose version it checked; bumps the version. */
export async function updateAddOn(tx: Database, companyId: number, id: number, values: AddOnChanges) {
  const [row] = await tx
    .update(addOns)
    .set({ ...values, version: sql`${addOns.version} + 1`, updatedAt: sql`now()` })
    .where(ofAddOn(companyId, id))
    .returning();
  return row;
}

/** Code changes of the company's add-ons, one transaction at a time (released at its end). */
export async function lockCodes(tx: Database, companyId: number) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`add_ons.code:${companyId}`}))`);
}
