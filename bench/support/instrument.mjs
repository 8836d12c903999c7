// Loaded with `node --import` into the server the benchmarks start (apps/api/dist/server.js, exactly as `npm start`
// runs it). It changes nothing the store does; it only adds what a benchmark needs from inside the process:
// - a count of the SQL statements sent, at the driver (node-postgres' Client#query; PGlite's one entry point per
//   statement, BEGIN and COMMIT included), read by the benchmark before and after a load run;
// - the resident memory;
// - a bare Fastify hello-world on its own port, in this same process (the ceiling the API is compared with);
// - static copies of pages: a request whose query string holds `__bench_static=1` is answered with the HTML the
//   benchmark saved for that path, from memory (with the same Content-Encoding the store used for it), before
//   Fastify sees it.
// It talks to the benchmark over the IPC channel of child_process.spawn.
import http from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import pg from 'pg';

let statements = 0;

const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  statements += 1;
  return pgQuery.apply(this, args);
};

// PGlite's query(), exec() and a transaction's statements (BEGIN, each query, COMMIT) each run exactly one
// _runExclusiveQuery call. Only a store on PGlite (no DATABASE_URL) loads PGlite: the store on PostgreSQL never
// does, and its resident memory must not include it.
if (!process.env.DATABASE_URL) {
  const { PGlite } = await import('@electric-sql/pglite');
  let pgliteProto = PGlite.prototype;
  while (pgliteProto && !Object.hasOwn(pgliteProto, '_runExclusiveQuery'))
    pgliteProto = Object.getPrototypeOf(pgliteProto);
  if (!pgliteProto)
    throw new Error('bench: PGlite has no _runExclusiveQuery any more; update bench/support/instrument.mjs');
  const pgliteRun = pgliteProto._runExclusiveQuery;
  pgliteProto._runExclusiveQuery = function countedRun(...args) {
    statements += 1;
    return pgliteRun.apply(this, args);
  };
}

/** path → the saved page, ready in each encoding the store answered it with. */
const copies = new Map();

function serveCopy(request, response) {
  const url = new URL(request.url ?? '/', 'http://bench');
  const copy = copies.get(url.pathname);
  if (!copy) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('bench: no static copy of this path');
    return;
  }
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const encoding = ['br', 'gzip'].find((name) => copy.bodies[name] && accepted.includes(name));
  const body = encoding ? copy.bodies[encoding] : copy.bodies.identity;
  response.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': body.length,
    vary: 'Accept-Encoding',
    ...(encoding ? { 'content-encoding': encoding } : {}),
  });
  response.end(body);
}

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function emitWithCopies(event, ...args) {
  const [request, response] = args;
  if (event === 'request' && request?.url?.includes('__bench_static=1')) {
    serveCopy(request, response);
    return true;
  }
  return emit.call(this, event, ...args);
};

let helloPort;
async function startHello() {
  if (helloPort) return helloPort;
  const { default: Fastify } = await import('fastify');
  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  await hello.listen({ port: 0, host: '127.0.0.1' });
  helloPort = hello.server.address().port;
  return helloPort;
}

const handlers = {
  stats: async () => ({ statements, rss: process.memoryUsage().rss }),
  hello: async () => ({ port: await startHello() }),
  copy: async ({ path, html, encodings }) => {
    const identity = Buffer.from(html);
    copies.set(path, {
      bodies: {
        identity,
        gzip: encodings.includes('gzip') ? gzipSync(identity) : undefined,
        br: encodings.includes('br') ? brotliCompressSync(identity) : undefined,
      },
    });
    return {};
  },
};

if (process.send) {
  process.on('message', (message) => {
    const handler = handlers[message?.type];
    if (!handler) return;
    handler(message).then(
      (answer) => process.send?.({ id: message.id, ...answer }),
      (error) => process.send?.({ id: message.id, error: String(error) }),
    );
  });
  // The IPC channel must not keep a stopping server alive.
  process.channel?.unref();
}
