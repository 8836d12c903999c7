// Prints how fast the API prices a trip (issue #3: a visitor sees every plan within a second) and how fast the
// home page renders on the server. Runs the production app in-process on a fresh embedded database.
// Usage: npm run bench   (after npm run build, for the page figure)
import { fileURLToPath } from 'node:url';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openPglite } from '../apps/api/src/db/client.ts';
import { demoCompany } from '../apps/api/src/db/seed/demo-company.ts';
import { seedCompany } from '../apps/api/src/db/seed/index.ts';
import { mountStorefront, storefrontBuildExists } from '../apps/api/src/web.ts';
import { addDays, todayInChile } from '../packages/domain/src/dates.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 200);

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function measure(label: string, run: () => Promise<Response>) {
  for (let i = 0; i < 10; i += 1) await (await run()).arrayBuffer(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const started = performance.now();
    const response = await run();
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${label}: HTTP ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label}: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms, max ${(times.at(-1) ?? 0).toFixed(1)} ms over ${rounds} requests`,
  );
}

const database = await openPglite({});
await database.migrate();
await seedCompany(database.db, demoCompany);
// Production needs its public origin (absolute URLs come only from configuration); the bench makes none.
const config = loadConfig({
  NODE_ENV: 'production',
  // React's production build without a deployment's secrets (ADR 012).
  DEPLOYMENT: 'local',
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'http://localhost:3000',
  COOKIE_SECRET: 'bench-only-cookie-secret-32-characters',
});
const app = await buildApp({ config, db: database.db });
const webBuildDir = fileURLToPath(new URL('../apps/web/build', import.meta.url));
const withPages = storefrontBuildExists(webBuildDir);
if (withPages) await mountStorefront(app, webBuildDir);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';

const departure = addDays(todayInChile(), 10);
const search = new URLSearchParams({
  origin: '1',
  destination: '3',
  modality: '1',
  departureDate: departure,
  returnDate: addDays(departure, 9),
  passengers: '1:2,2:1',
  discountCode: 'BIENVENIDA10',
  upgradeCovid: 'true',
});
await measure('GET /api/1/plans (2 adults + 1 senior, Europe, code, covid)', () =>
  fetch(`${base}/api/1/plans?${search}`),
);
await measure('GET /api/companies/1/website-parameters', () => fetch(`${base}/api/companies/1/website-parameters`));
if (withPages) await measure('GET / (server-rendered home page)', () => fetch(`${base}/`));
else console.log('GET /: skipped, no storefront build (run npm run build)');

await app.close();
await database.close();
