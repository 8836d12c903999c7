import { and, desc, eq, inArray, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { sales } from './tables.ts';

/**
 * The sales among `saleIds` (a subquery: certificates' salesOfHolder) with their purchase snapshot (travellers,
 * consents), for a personal-data request (modules/privacy). Sales are kept: nothing here changes them.
 */
export async function salesOfPerson(db: Database, companyId: number, saleIds: SQLWrapper) {
  return db
    .select({ id: sales.id, status: sales.status, createdAt: sales.createdAt, purchase: sales.purchase })
    .from(sales)
    .where(and(eq(sales.companyId, companyId), inArray(sales.id, saleIds)))
    .orderBy(desc(sales.id))
    .limit(500);
}
