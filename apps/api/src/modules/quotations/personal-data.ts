import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import type { Person } from '#app/lib/personal-data.ts';
import { quotations } from './tables.ts';

/** The buyer data of quotations naming the person (e-mail, or RUT compared without dots, dashes or spaces). */
export async function quotationsOfPerson(db: Database, companyId: number, person: Person) {
  return db
    .select({
      id: quotations.id,
      firstName: quotations.name,
      lastName: quotations.lastName,
      email: quotations.email,
      rut: quotations.rut,
      createdAt: quotations.createdAt,
    })
    .from(quotations)
    .where(
      and(
        eq(quotations.companyId, companyId),
        'email' in person
          ? sql`lower(trim(${quotations.email})) = ${person.email}`
          : sql`upper(regexp_replace(coalesce(${quotations.rut}, ''), '[.[:space:]-]', '', 'g')) = ${person.document}`,
      ),
    )
    .limit(500);
}
