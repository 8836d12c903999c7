// npm run bench:api — issue #10's API figures beside its targets. Starts the built store (NODE_ENV=production) on a
// fresh database — PostgreSQL when BENCH_DATABASE_URL or DATABASE_URL is set, PGlite otherwise — with a bare Fastify
// hello-world in the same process, then loads each target in turn with autocannon (alternating, BENCH_ROUNDS rounds of
// BENCH_SECONDS seconds) and prints the medians, the SQL statements each request sent (counted at the driver), a
// fixed-rate run at 500 req/s on the plans search, and the resident memory after start on each database. Every
// request asks as a browser does (its Accept-Encoding), and the plans search sends the spec's parameters as its
// clients do, a blank discountCode included.
import autocannon from 'autocannon';
import { addDays, todayInChile } from '../packages/domain/src/dates.ts';
import { fixed, type MemorySample, mark, median, memoryFlatness, percent, table } from './support/figures.ts';
import { fixedRateLoad } from './support/fixed-rate.ts';
import {
  type BenchServer,
  benchDatabaseUrl,
  createQuotation,
  type DatabaseKind,
  quotationBody,
  startServer,
} from './support/server.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
/**
 * How long a fixed-rate run lasts (BENCH_FIXED_SECONDS, 30 s): a p99 needs enough answers to mean something (3,000 at
 * 100 req/s), and a run as long as a kept page's lifetime meets its background render once, as a sustained load
 * does; a 5 s run met it or not by chance, and its p99 was then that render or nothing.
 */
const fixedSeconds = Number(process.env.BENCH_FIXED_SECONDS ?? 30);
/** The issue's «flat across a 5-minute load run»: marked only for a load that lasted this long. */
const flatRunSeconds = 300;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const fixedRate = 500;
const mb = (bytes: number) => bytes / 1024 / 1024;

/**
 * What a browser sends with every request (Chrome, Firefox, Safari): compressed answers, Brotli included. The store
 * compresses JSON for them, so a run without it would measure answers no visitor gets.
 */
const browserHeaders = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const headersOf = (target: Target) =>
  target.body ? { ...browserHeaders, 'content-type': 'application/json' } : browserHeaders;

type Target = {
  name: string;
  url: string;
  method?: 'GET' | 'PUT';
  body?: string;
  /** Counted statements only mean something for the store, not for the hello-world. */
  counted: boolean;
};

type Run = { rps: number; p50: number; p99: number; bad: number };

/** Lets the server finish what the last run left queued, so one target's backlog is not the next one's figure. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1000));

async function load(target: Target, options: { duration: number }) {
  await settle();
  const result = await autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    ...(target.body ? { body: target.body } : {}),
    headers: headersOf(target),
    connections,
    duration: options.duration,
  });
  return {
    // Completed requests over the seconds they took (autocannon's per-second average drops partial seconds).
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
  } satisfies Run;
}

const send = async (target: Target) => {
  const answer = await fetch(target.url, {
    method: target.method ?? 'GET',
    ...(target.body ? { body: target.body } : {}),
    headers: headersOf(target),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${target.name}: HTTP ${answer.status} ${text.slice(0, 300)}`);
};

/**
 * The SQL statements one request sends, once warm: `count` requests one after another (none in flight at either
 * reading of the counter), statements counted at the driver, divided.
 */
async function statementsPerRequest(server: BenchServer, target: Target, count = 10) {
  if (!target.counted) return Number.NaN;
  const before = await server.stats();
  for (let i = 0; i < count; i += 1) await send(target);
  const after = await server.stats();
  return (after.statements - before.statements) / count;
}

/** Resident memory of a store started on `kind`, a second after it said it was ready. */
async function memoryAfterStart(kind: DatabaseKind) {
  const server = await startServer(kind);
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return mb((await server.stats()).rss);
  } finally {
    await server.stop();
  }
}

const kind: DatabaseKind = benchDatabaseUrl() ? 'postgres' : 'pglite';
console.log(
  `bench:api — database: ${kind === 'postgres' ? 'PostgreSQL (a fresh database on BENCH_DATABASE_URL/DATABASE_URL)' : 'PGlite (set BENCH_DATABASE_URL for PostgreSQL)'}`,
);
console.log(
  `${rounds} rounds × ${seconds} s per target, ${connections} connections, targets alternating; figures are medians of the rounds\n`,
);

const server = await startServer(kind);
let rssAfterRun = Number.NaN;
/** RSS after each round of the load, from the end of the first one (the heap has grown to its working size then). */
const memorySamples: MemorySample[] = [];
const rssAfterStart = mb((await server.stats()).rss);
const results = new Map<string, Run[]>();
const statements = new Map<string, number>();
let fixedRun: Run | undefined;
try {
  const { port: helloPort } = await server.ask<{ port: number }>('hello');
  const departure = addDays(todayInChile(), 10);
  const back = addDays(departure, 9);
  const body = quotationBody(departure, back);
  const quotationId = await createQuotation(server.base, body);
  const search = new URLSearchParams({
    origin: String(body.origin),
    destination: String(body.destination),
    modality: String(body.modality),
    departureDate: departure,
    returnDate: back,
    passengers: body.passangerTypes.map((type) => `${type.passengerTypeId}:${type.quantity}`).join(','),
    // As the spec's clients send them (§7): the optional ones too, a blank discount code when none was typed.
    discountCode: '',
    upgradeCovid: 'false',
  });
  const targets: Target[] = [
    { name: 'hello-world (bare Fastify)', url: `http://127.0.0.1:${helloPort}/`, counted: false },
    { name: 'plans search', url: `${server.base}/api/1/plans?${search}`, counted: true },
    { name: 'website-parameters', url: `${server.base}/api/companies/1/website-parameters`, counted: true },
    { name: 'plans of a quotation', url: `${server.base}/api/1/plans-quotation/${quotationId}`, counted: true },
    {
      name: 'quotation update (PUT)',
      url: `${server.base}/api/quotations/1/${quotationId}`,
      method: 'PUT',
      body: JSON.stringify(body),
      counted: true,
    },
    {
      name: 'certificate search',
      url: `${server.base}/api/certificates?word=${encodeURIComponent('pedro@example.cl')}`,
      counted: true,
    },
  ];
  for (const target of targets) {
    await send(target);
    // A short warm-up, so the first round does not measure the JIT and the first reads.
    await load(target, { duration: 1 });
    statements.set(target.name, await statementsPerRequest(server, target));
  }
  const loadStarted = Date.now();
  for (let round = 1; round <= rounds; round += 1) {
    for (const target of targets) {
      const run = await load(target, { duration: seconds });
      results.set(target.name, [...(results.get(target.name) ?? []), run]);
      process.stderr.write(`round ${round}: ${target.name} ${fixed(run.rps)} req/s\n`);
    }
    memorySamples.push({ seconds: (Date.now() - loadStarted) / 1000, mb: mb((await server.stats()).rss) });
  }
  const plans = targets[1] as Target;
  await settle();
  fixedRun = await fixedRateLoad(plans.url, { rate: fixedRate, seconds: fixedSeconds, headers: browserHeaders });
  rssAfterRun = mb((await server.stats()).rss);
} finally {
  await server.stop();
}

const medianOf = (name: string, pick: (run: Run) => number) => median((results.get(name) ?? []).map(pick));
const helloRps = medianOf('hello-world (bare Fastify)', (run) => run.rps);
const rows = [['target', 'req/s', 'p50 ms', 'p99 ms', 'of hello-world', 'SQL/request', 'non-2xx/errors']];
for (const [name, runs] of results) {
  const rps = medianOf(name, (run) => run.rps);
  rows.push([
    name,
    fixed(rps),
    fixed(medianOf(name, (run) => run.p50)),
    fixed(medianOf(name, (run) => run.p99)),
    percent(rps, helloRps),
    fixed(statements.get(name), 1),
    String(runs.reduce((sum, run) => sum + run.bad, 0)),
  ]);
}
console.log(table(rows));
console.log(
  `\nplans search at a fixed ${fixedRate} req/s (${fixedSeconds} s): delivered ${fixed(fixedRun?.rps)} req/s, p50 ${fixed(fixedRun?.p50)} ms, p99 ${fixed(fixedRun?.p99)} ms, non-2xx/errors ${fixedRun?.bad ?? '—'}`,
);

console.log('\nresident memory (RSS) after start:');
const memory: Partial<Record<DatabaseKind, number>> = { [kind]: rssAfterStart };
const otherKinds: DatabaseKind[] = kind === 'postgres' ? ['pglite'] : [];
for (const other of otherKinds) memory[other] = await memoryAfterStart(other);
console.log(
  `  ${kind}: ${fixed(rssAfterStart)} MB after start, ${fixed(rssAfterRun)} MB after this run's load (${fixed(rssAfterRun - rssAfterStart)} MB)`,
);
console.log(
  `  ${kind} after each round: ${memorySamples.map((sample) => `${fixed(sample.mb)} MB at ${fixed(sample.seconds)} s`).join(', ')}`,
);
for (const other of otherKinds) console.log(`  ${other}: ${fixed(memory[other])} MB after start`);

const plansRps = medianOf('plans search', (run) => run.rps);
const fixedHeld = fixedRun ? fixedRun.rps >= fixedRate * 0.95 : false;
console.log(
  `\ntargets of issue #10 (they apply on PostgreSQL; this run: ${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}):`,
);
const targetRows = [['target', 'measured', 'mark']];
targetRows.push([
  'plans search ≥ 40 % of hello-world req/s',
  percent(plansRps, helloRps),
  mark((plansRps / helloRps) * 100, { atLeast: 40 }),
]);
targetRows.push([
  `plans search p99 ≤ 15 ms at a fixed ${fixedRate} req/s (and the rate held)`,
  `${fixed(fixedRun?.p99)} ms at ${fixed(fixedRun?.rps)} req/s`,
  fixedHeld ? mark(fixedRun?.p99 ?? Number.NaN, { atMost: 15 }) : '«not met»',
]);
if (memory.pglite !== undefined) {
  targetRows.push([
    'RSS after start ≤ 250 MB on PGlite',
    `${fixed(memory.pglite)} MB`,
    mark(memory.pglite, { atMost: 250 }),
  ]);
} else {
  targetRows.push(['RSS after start ≤ 250 MB on PGlite', 'not measured (this run is on PostgreSQL only)', '—']);
}
if (memory.postgres !== undefined) {
  targetRows.push([
    'RSS after start ≤ 150 MB on PostgreSQL',
    `${fixed(memory.postgres)} MB`,
    mark(memory.postgres, { atMost: 150 }),
  ]);
} else {
  targetRows.push(['RSS after start ≤ 150 MB on PostgreSQL', 'not measured (set BENCH_DATABASE_URL)', '—']);
}
const flatness = memoryFlatness(memorySamples, flatRunSeconds);
const loadSeconds = memorySamples.at(-1)?.seconds ?? 0;
targetRows.push([
  'RSS flat across a 5-minute load run (≤ 10 % growth after round 1)',
  `${percent(flatness.growth * 100, 100)} over ${fixed(loadSeconds)} s`,
  flatness.mark ?? `not marked: under ${flatRunSeconds} s (BENCH_SECONDS=20)`,
]);
console.log(table(targetRows, 2));
