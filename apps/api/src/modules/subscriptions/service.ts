import type { Database } from '#app/db/client.ts';
import { subscriptions } from '#app/db/schema.ts';
import { requireCompany } from '#app/modules/company/service.ts';

/** Subscribing twice is not an error: the address is on the list either way, and we reveal nothing. */
export async function subscribe(db: Database, companyId: number, email: string) {
  await requireCompany(db, companyId);
  await db
    .insert(subscriptions)
    .values({ companyId, email: email.toLowerCase() })
    .onConflictDoNothing({ target: [subscriptions.companyId, subscriptions.email] });
}
