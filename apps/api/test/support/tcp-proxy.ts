import net from 'node:net';

/**
 * A TCP proxy on loopback between the API and PostgreSQL, to make the database go away on cue: cut every live
 * connection (a restart, a network cut), refuse new ones (a server that is down), or freeze (accept, forward
 * nothing: a server that hangs, a network black hole).
 */
export type TcpProxy = {
  readonly port: number;
  /** Connections open through the proxy right now. */
  readonly liveConnections: number;
  /** Frozen connections whose peer sent something since: each is a query (or a log-in) waiting for an answer. */
  readonly waitingConnections: number;
  /** Destroys every live connection, both sides. New connections are still forwarded. */
  cut(): void;
  /** Cuts every connection and stops listening: a connection attempt gets ECONNREFUSED. */
  refuse(): Promise<void>;
  /** Forwards nothing either way, on live and new connections alike; nothing is closed. */
  freeze(): void;
  /**
   * Freezes each connection at the moment its client sends `text` (that and all later bytes are held back); other
   * connections carry on. `freezeWhen('begin')` leaves every transaction waiting on its BEGIN.
   */
  freezeWhen(text: string): void;
  /** Delays every forwarded chunk by `ms` (0: none), as a slow network or a busy server does. */
  delay(ms: number): void;
  /** Back to forwarding (listening again if refusing); connections that were frozen are cut, their state is lost. */
  restore(): Promise<void>;
  close(): Promise<void>;
};

type Pair = { client: net.Socket; upstream: net.Socket | undefined; frozen: boolean; waiting: boolean };

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let frozen = false;
  let delayMs = 0;
  let freezeMarker: string | undefined;
  /** Writes now, or after the delay (timers of equal delay keep the chunks in order). */
  const forward = (to: net.Socket, chunk: Buffer) => {
    if (delayMs === 0) to.write(chunk);
    else setTimeout(() => to.destroyed || to.write(chunk), delayMs);
  };

  const destroy = (pair: Pair) => {
    pairs.delete(pair);
    pair.client.destroy();
    pair.upstream?.destroy();
  };

  const server = net.createServer((client) => {
    const pair: Pair = { client, upstream: undefined, frozen, waiting: false };
    pairs.add(pair);
    client.on('error', () => destroy(pair));
    client.on('close', () => destroy(pair));
    if (pair.frozen) {
      // Read and drop: the peer sees its bytes accepted and never an answer.
      client.on('data', () => {
        pair.waiting = true;
      });
      return;
    }
    const upstream = net.connect(target);
    pair.upstream = upstream;
    upstream.on('error', () => destroy(pair));
    upstream.on('close', () => destroy(pair));
    client.on('data', (chunk: Buffer) => {
      if (freezeMarker !== undefined && chunk.includes(freezeMarker)) pair.frozen = true;
      if (pair.frozen) pair.waiting = true;
      else forward(upstream, chunk);
    });
    upstream.on('data', (chunk) => {
      if (!pair.frozen) forward(client, chunk);
    });
  });

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      // close() calls back once every connection is gone; the callers cut them right away.
      server.close(() => resolve());
    });
  const cutAll = () => {
    for (const pair of [...pairs]) destroy(pair);
  };

  const port = await listen(0);
  return {
    port,
    get liveConnections() {
      return pairs.size;
    },
    get waitingConnections() {
      return [...pairs].filter((pair) => pair.waiting).length;
    },
    cut: cutAll,
    async refuse() {
      const closed = stopListening();
      cutAll();
      await closed;
    },
    freeze() {
      frozen = true;
      for (const pair of pairs) pair.frozen = true;
    },
    freezeWhen(text) {
      freezeMarker = text;
    },
    delay(ms) {
      delayMs = ms;
    },
    async restore() {
      frozen = false;
      freezeMarker = undefined;
      for (const pair of [...pairs]) if (pair.frozen) destroy(pair);
      if (!server.listening) await listen(port);
    },
    async close() {
      const closed = stopListening();
      cutAll();
      await closed;
    },
  };
}
