/**
 * The whole schema, for drizzle-kit and the database handles: each module owns its tables in
 * `modules/<area>/tables.ts` (decision 009); this file only gathers them.
 */

export * from '../modules/audit/tables.ts';
export * from '../modules/blog/tables.ts';
export * from '../modules/catalog/tables.ts';
export * from '../modules/certificates/tables.ts';
export * from '../modules/claims/tables.ts';
export * from '../modules/company/tables.ts';
export * from '../modules/contact/tables.ts';
export * from '../modules/content/tables.ts';
export * from '../modules/invoices/tables.ts';
export * from '../modules/jobs/tables.ts';
export * from '../modules/legal/tables.ts';
export * from '../modules/operators/tables.ts';
export * from '../modules/passengers/tables.ts';
export * from '../modules/payments/tables.ts';
export * from '../modules/plans/tables.ts';
export * from '../modules/privacy/tables.ts';
export * from '../modules/publishing/tables.ts';
export * from '../modules/purchases/tables.ts';
export * from '../modules/quotations/tables.ts';
export * from '../modules/subscriptions/tables.ts';
export * from '../modules/tax-documents/tables.ts';
