import { type Column, eq, getTableName, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { paidSaleStatuses, sales, wasPaid } from './tables.ts';

/*
 * The sale's paid state as this module publishes it to the modules below it (quotations reads it in its own
 * statements, invoices under a share lock). A leaf: it imports only this module's tables, so importing it never
 * pulls payments' services (and their imports of quotations) in.
 */

/**
 * The sale of a quotation as columns of the owner's own query (the quotations module selects them beside the
 * quotation's columns, in the same statement): its id (null before the first payment attempt) and whether it is
 * paid. The one answer to «is this quotation paid?».
 */
export function saleColumnsOf(quotationId: Column) {
  // Spelled with their tables: drizzle leaves a one-table select's columns bare, and a bare "id" would be the sale's.
  const outer = qualified(quotationId);
  const ofQuotation = sql`${qualified(sales.quotationId)} = ${outer}`;
  return {
    saleId: sql<number | null>`(select ${qualified(sales.id)} from ${sales} where ${ofQuotation})`,
    paid: sql<boolean>`exists (select 1 from ${sales} where ${ofQuotation} and ${qualified(sales.status)} in (${sql.raw(paidSaleStatuses.map((s) => `'${s}'`).join(', '))}))`,
  };
}

const qualified = (column: Column) => sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/**
 * Whether the quotation's sale is paid, read under a share lock inside the caller's transaction: the sale cannot
 * become paid until that transaction ends (the billing data is written under it).
 */
export async function isPaidUnderShareLock(tx: Database, quotationId: string): Promise<boolean> {
  const [sale] = await tx
    .select({ status: sales.status })
    .from(sales)
    .where(eq(sales.quotationId, quotationId))
    .for('share');
  return wasPaid(sale?.status);
}
