import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small round-robin load balancer on loopback, in front of several server processes as a real one would be: it
 * sends each request to the next backend in turn, adds `X-Forwarded-For`/`-Host`/`-Proto` (the servers believe them
 * through TRUST_PROXY), and answers 502 when the backend it chose fails. Like nginx's `proxy_next_upstream error`,
 * a backend that refuses the connection (a process that is down) is skipped and the next one is tried: the request
 * never reached it, so that is safe for any method. A request that did reach a backend is never sent twice.
 */
export type Balancer = {
  /** http://127.0.0.1:port — what the servers' PUBLIC_URL is set to. */
  readonly url: string;
  /** The backends' base URLs, in turn order; the test adds, replaces and removes them as processes come and go. */
  backends: string[];
  /** How many requests each backend answered (by base URL). */
  readonly answeredBy: Map<string, number>;
  close(): Promise<void>;
};

export async function startBalancer(backends: string[] = []): Promise<Balancer> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const answeredBy = new Map<string, number>();
  let turn = 0;
  const state = { backends };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => forward(request, response, Buffer.concat(chunks), 0));
  });

  const fail = (response: http.ServerResponse, why: string) => {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    response.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    response.end(`502 Bad Gateway (balancer: ${why})`);
  };

  function forward(request: http.IncomingMessage, response: http.ServerResponse, body: Buffer, tried: number) {
    const live = state.backends;
    if (live.length === 0 || tried >= live.length) return fail(response, 'no backend answered');
    const backend = live[turn++ % live.length] as string;
    const target = new URL(backend);
    const forwardedFor = [request.headers['x-forwarded-for'], request.socket.remoteAddress].filter(Boolean).join(', ');
    const headers: http.OutgoingHttpHeaders = {
      ...request.headers,
      'x-forwarded-for': forwardedFor,
      'x-forwarded-host': request.headers.host ?? '',
      'x-forwarded-proto': 'http',
      'content-length': String(body.length),
    };
    // The body was read whole: it leaves with its length, not in the chunks it came in.
    delete headers['transfer-encoding'];
    const upstream = http.request(
      {
        agent,
        hostname: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers,
      },
      (answer) => {
        answeredBy.set(backend, (answeredBy.get(backend) ?? 0) + 1);
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
        answer.on('error', () => response.destroy());
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') forward(request, response, body, tried + 1);
      else fail(response, error.code ?? error.message);
    });
    upstream.end(body);
  }

  // Idle client connections stay open longer than the clients keep them (as balancers are set up): a client never
  // sends a request on a connection the balancer is closing.
  server.keepAliveTimeout = 75_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get backends() {
      return state.backends;
    },
    set backends(next: string[]) {
      state.backends = next;
    },
    answeredBy,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
