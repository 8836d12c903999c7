// npm run bench:backoffice — issue 24's console figure: the sale search by RUT, e-mail and sale number (and by
// certificate number and name) over 100 000 paid sales, p99 ≤ 100 ms on PostgreSQL. Makes a fresh database on the
// server BENCH_DATABASE_URL or DATABASE_URL names (PGlite otherwise, for a figure without a target), migrates and
// seeds it as `npm start` does, writes BENCH_SALES sales (two travellers each, certificates and search keys) in
// batches, then asks GET /api/backoffice/sales over HTTP with a finance API key, BENCH_REQUESTS times per kind from
// BENCH_CONCURRENCY clients at once, and prints p50 / p99 beside the target with the index each query's plan uses.
import { randomInt, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import type { Database } from '../apps/api/src/db/client.ts';
import { demoCompany } from '../apps/api/src/db/seed/demo-company.ts';
import { ensureCompanySeeded } from '../apps/api/src/db/seed/index.ts';
import { createApiKey, operatorDeps } from '../apps/api/src/modules/operators/service.ts';
import { openMigratedDatabase } from '../apps/api/src/startup.ts';
import { rutCheckDigit } from '../packages/domain/src/rut.ts';
import { fixed, mark, percentile, table } from './support/figures.ts';
import { benchDatabaseUrl, freshPostgres } from './support/server.ts';

const saleCount = Number(process.env.BENCH_SALES ?? 100_000);
const requestsPerKind = Number(process.env.BENCH_REQUESTS ?? 400);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const batchSize = 5_000;
const target = { atMost: 100 };

const givenNames = [
  'Camila',
  'Diego',
  'Rosa',
  'Begoña',
  'Matías',
  'Josefa',
  'Tomás',
  'Florencia',
  'Agustín',
  'Isidora',
];
const surnames = [
  'Rojas',
  'Muñoz',
  'Pérez',
  'González',
  'Núñez',
  'Soto',
  'Contreras',
  'Silva',
  'Martínez',
  'Sepúlveda',
];

/** The i-th sale's data: distinct ids, RUTs and e-mails; names from small lists, as real ones repeat. */
function saleOf(i: number) {
  const rutBody = String(10_000_000 + i * 7);
  return {
    id: 100_000_000 + i * 13,
    quotationId: randomUUID(),
    rut: `${rutBody}-${rutCheckDigit(rutBody)}`,
    email: `viajero.${i}@example.cl`,
    firstName: givenNames[i % givenNames.length] as string,
    lastName: `${surnames[(i * 7) % surnames.length]} ${surnames[(i * 3) % surnames.length]}`,
    // Spread over two years, so date-ordered pages and the paid index see a realistic range.
    paidAt: new Date(Date.now() - (i % 730) * 86_400_000 - randomInt(86_400_000)),
  };
}

async function seedSales(db: Database, companyId: number) {
  const reference = await db.execute(sql`
    select (select min(id) from origins) as origin, (select min(id) from destinations) as destination,
           (select min(id) from modalities) as modality, (select min(id) from products) as product`);
  const { origin, destination, modality, product } = (reference as unknown as { rows: Record<string, number>[] })
    .rows[0] as Record<string, number>;
  for (let start = 0; start < saleCount; start += batchSize) {
    const batch = Array.from({ length: Math.min(batchSize, saleCount - start) }, (_, k) => saleOf(start + k));
    // One array parameter each (sql.param): drizzle would spread a bare array into a row of parameters.
    const column = <T>(pick: (sale: ReturnType<typeof saleOf>) => T) => sql.param(batch.map(pick));
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into quotations (id, company_id, origin_id, destination_id, modality_id, departure_date, return_date, plan_id)
        select q, ${companyId}, ${origin}, ${destination}, ${modality}, '2027-01-10', '2027-01-20', ${product}
        from unnest(${column((s) => s.quotationId)}::uuid[]) as q`);
      await tx.execute(sql`
        insert into sales (id, company_id, quotation_id, product_id, amount_usd_cents, amount_clp, status, paid_at, created_at, purchase)
        select s.id, ${companyId}, s.q, ${product}, 9900, 91000, 'paid', s.at, s.at,
          jsonb_build_object('plan', jsonb_build_object('label', 'Travesía Plus'),
            'trip', jsonb_build_object('departureDate', '2027-01-10'),
            'travellers', jsonb_build_array(jsonb_build_object('firstName', s.first, 'lastName', s.last), jsonb_build_object('firstName', 'Acompañante', 'lastName', s.last)))
        from unnest(${column((s) => s.id)}::int[], ${column((s) => s.quotationId)}::uuid[], ${column((s) => s.paidAt.toISOString())}::timestamptz[],
                    ${column((s) => s.firstName)}::text[], ${column((s) => s.lastName)}::text[]) as s(id, q, at, first, last)`);
      await tx.execute(sql`
        insert into travellers (quotation_id, seq, passenger_type_id, first_name, last_name, gender, birth_date, nationality_id,
          document_type, document_number, email, phone, contact_first_name, contact_last_name, contact_phone)
        select s.q, p.seq, (select min(id) from passenger_types), case p.seq when 1 then s.first else 'Acompañante' end, s.last, 'F',
          '1990-01-01', 9, 1, case p.seq when 1 then s.rut else s.rut || '0' end,
          case p.seq when 1 then s.email else 'otro.' || s.email end, '+56 9 1234 5678', 'Pedro', 'Soto', '+56 2 2345 6789'
        from unnest(${column((s) => s.quotationId)}::uuid[], ${column((s) => s.firstName)}::text[], ${column((s) => s.lastName)}::text[],
                    ${column((s) => s.rut)}::text[], ${column((s) => s.email)}::text[]) as s(q, first, last, rut, email)
        cross join (values (1), (2)) as p(seq)`);
      // Certificates and their search keys as issueCertificates writes them (0023's rule for the names).
      await tx.execute(sql`
        insert into certificates (sale_id, traveller_id, number)
        select s.id, t.id, 'TRV-2026-' || lpad(s.id::text, 9, '0') || '-' || t.seq
        from sales s join travellers t on t.quotation_id = s.quotation_id
        where s.id = any(${column((s) => s.id)}::int[])`);
      await tx.execute(sql`
        insert into certificate_search_keys (certificate_id, company_id, document, email, name, surname)
        select c.id, ${companyId}, upper(regexp_replace(t.document_number, '[.\\-\\s]', '', 'g')), lower(t.email),
          translate(lower(t.first_name || ' ' || t.last_name), 'áéíóúñ', 'aeioun'), translate(lower(t.last_name || ' ' || t.first_name), 'áéíóúñ', 'aeioun')
        from certificates c join travellers t on t.id = c.traveller_id
        where c.sale_id = any(${column((s) => s.id)}::int[])`);
    });
    process.stdout.write(`\r  ${Math.min(start + batchSize, saleCount)} / ${saleCount} sales written`);
  }
  process.stdout.write('\n');
  await db.execute(sql`analyze`);
}

type Kind = { name: string; query: (i: number) => string; counted: boolean };

const kinds: Kind[] = [
  { name: 'RUT (12.345.678-5 form)', query: (i) => `q=${dotted(saleOf(i).rut)}`, counted: true },
  { name: 'E-mail', query: (i) => `q=${encodeURIComponent(saleOf(i).email.toUpperCase())}`, counted: true },
  { name: 'Sale number', query: (i) => `q=${saleOf(i).id}&by=sale`, counted: true },
  { name: 'Certificate number', query: (i) => `q=TRV-2026-${String(saleOf(i).id).padStart(9, '0')}-1`, counted: false },
  {
    name: 'Surname prefix',
    query: (i) => `q=${encodeURIComponent(surnames[i % surnames.length] ?? '')}&by=name`,
    counted: false,
  },
  { name: 'Paid this month (list)', query: () => `paidFrom=${new Date().toISOString().slice(0, 8)}01`, counted: false },
];

const dotted = (rut: string) => rut.replace(/^(\d+)(\d{3})(\d{3})-/, '$1.$2.$3-');

async function measure(base: string, secret: string, kind: Kind): Promise<{ p50: number; p99: number; empty: number }> {
  const times: number[] = [];
  let empty = 0;
  let next = 0;
  const ask = async (i: number) => {
    const started = performance.now();
    const answer = await fetch(`${base}/api/backoffice/sales?${kind.query(i)}`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    const body = (await answer.json()) as { sales?: unknown[] };
    times.push(performance.now() - started);
    if (answer.status !== 200) throw new Error(`${kind.name}: ${answer.status} ${JSON.stringify(body)}`);
    if ((body.sales ?? []).length === 0) empty += 1;
  };
  // Warm-up: the first requests load the plan cache and the pages; they are not counted.
  for (let i = 0; i < 20; i += 1) await ask(randomInt(saleCount));
  times.length = 0;
  empty = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requestsPerKind) {
        next += 1;
        await ask(randomInt(saleCount));
      }
    }),
  );
  return { p50: percentile(times, 50), p99: percentile(times, 99), empty };
}

/** The indexes PostgreSQL's plan of one search uses (EXPLAIN of the statement the route sends). */
async function indexesOf(db: Database, statement: string): Promise<string> {
  const plan = (await db.execute(sql.raw(`explain ${statement}`))) as unknown as { rows: { 'QUERY PLAN': string }[] };
  const names = new Set<string>();
  for (const row of plan.rows) {
    const match = /using (\w+)/i.exec(row['QUERY PLAN']);
    if (match?.[1]) names.add(match[1]);
  }
  return [...names].join(', ') || 'none (sequential scan)';
}

async function main() {
  const adminUrl = benchDatabaseUrl();
  const postgres = adminUrl ? await freshPostgres(adminUrl) : undefined;
  const dataDir = await mkdtemp(join(tmpdir(), 'travesia-bench-backoffice-'));
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: postgres?.url ?? '',
    DATA_DIR: dataDir,
    RATE_LIMIT_FACTOR: '100000',
    SEED_DEMO_DATA: 'true',
  });
  const log = pino({ level: 'warn' });
  const database = await openMigratedDatabase(config, {
    log: () => log,
    setup: async (db) => {
      await ensureCompanySeeded(db, demoCompany);
    },
  });
  const app = await buildApp({ config, db: database.db, logger: false });
  try {
    console.log(`Seeding ${saleCount} sales on ${postgres ? 'PostgreSQL' : 'PGlite'}…`);
    const seeding = performance.now();
    await seedSales(database.db, config.companyId);
    console.log(`  seeded in ${fixed((performance.now() - seeding) / 1000, 1)} s`);
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const deps = operatorDeps(database.db, config.backoffice.secretsKey);
    const { secret } = await createApiKey(
      deps,
      { label: 'bench', ip: null },
      { name: 'bench', roles: ['finance'], expiresAt: new Date(Date.now() + 86_400_000) },
    );
    const rows: string[][] = [['Search', 'p50 ms', 'p99 ms', 'Target', 'Empty answers']];
    for (const kind of kinds) {
      const figures = await measure(base, secret, kind);
      rows.push([
        kind.name,
        fixed(figures.p50, 1),
        fixed(figures.p99, 1),
        kind.counted ? `p99 ≤ ${target.atMost} ms ${postgres ? mark(figures.p99, target) : '(PostgreSQL only)'}` : '—',
        String(figures.empty),
      ]);
    }
    console.log(
      `\nGET /api/backoffice/sales, ${requestsPerKind} requests per search, ${concurrency} at once, ${saleCount} sales:\n`,
    );
    console.log(table(rows));
    if (postgres) {
      const sample = saleOf(1);
      const key = `${sample.rut.replace(/[.-]/g, '')}`;
      console.log('\nIndexes in the plans (EXPLAIN):');
      console.log(
        table([
          ['Search', 'Indexes'],
          [
            'RUT',
            await indexesOf(
              database.db,
              `select id from sales where company_id = 1 and id in (select c.sale_id from certificate_search_keys k join certificates c on c.id = k.certificate_id where k.company_id = 1 and k.document = '${key}') order by created_at desc, id desc limit 51`,
            ),
          ],
          [
            'E-mail',
            await indexesOf(
              database.db,
              `select id from sales where company_id = 1 and id in (select c.sale_id from certificate_search_keys k join certificates c on c.id = k.certificate_id where k.company_id = 1 and k.email = '${sample.email}') order by created_at desc, id desc limit 51`,
            ),
          ],
          [
            'Sale number',
            await indexesOf(
              database.db,
              `select id from sales where company_id = 1 and id = ${sample.id} order by created_at desc, id desc limit 51`,
            ),
          ],
        ]),
      );
    }
  } finally {
    await app.close();
    await database.close();
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
