import type { Database } from '#app/db/client.ts';
import { subscriptions } from './tables.ts';

/** The company was checked by the route-level hook. Subscribing twice is not an error: the address is on the list either way, and we reveal nothing. */
export async function subscribe(db: Database, companyId: number, email: string) {
  await db
    .insert(subscriptions)
    .values({ companyId, email: email.toLowerCase() })
    .onConflictDoNothing({ target: [subscriptions.companyId, subscriptions.email] });
}
