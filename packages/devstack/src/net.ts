import net from 'node:net';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Where test and dev ports come from: below the kernel's ephemeral range (Linux: 32768–60999). A
 * port the kernel hands out for `listen(0)` is an ephemeral one, and so is the local port of every
 * outgoing connection (Redis, PostgreSQL, the services' RPC): a port chosen that way can become an
 * outgoing connection's local port before the service binds it (CI saw `EADDRINUSE` on a gateway's
 * health port this way). Below that range only listeners compete, and each jest worker draws from
 * its own slice, so two suites running side by side do not draw the same port either.
 */
const PORT_FLOOR = 20_000;
const PORT_CEILING = 32_768;
const WORKER_SLICES = 4;
/** Ports this process handed out already: never twice, even after their holder closed them. */
const handedOut = new Set<number>();

function portSlice(): { from: number; size: number } {
  const size = Math.floor((PORT_CEILING - PORT_FLOOR) / WORKER_SLICES);
  const worker = Number(process.env.JEST_WORKER_ID);
  if (!Number.isInteger(worker) || worker < 1) return { from: PORT_FLOOR, size: size * WORKER_SLICES };
  return { from: PORT_FLOOR + ((worker - 1) % WORKER_SLICES) * size, size };
}

/** Whether a listener can bind `port` on every address (IPv6 wildcard covers IPv4 where it exists). */
export function canListen(port: number, host = '::'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (err: NodeJS.ErrnoException) =>
      // No IPv6 on this host: the IPv4 wildcard is the question then.
      resolve(err.code === 'EAFNOSUPPORT' && host === '::' ? canListen(port, '0.0.0.0') : false),
    );
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * A TCP port that was free a moment ago on every address, outside the ephemeral range (see above).
 * Another listener can still take it before the caller binds it; good enough for tests and dev.
 */
export async function freePort(): Promise<number> {
  const { from, size } = portSlice();
  for (let tries = 0; tries < 200; tries += 1) {
    const port = from + Math.floor(Math.random() * size);
    if (handedOut.has(port)) continue;
    if (await canListen(port, '::')) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`freePort: no free port in ${from}–${from + size - 1} after 200 tries`);
}

/** Whether something accepts TCP connections at host:port within `timeoutMs` (default 1000 ms). */
export function tcpAnswers(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (answered: boolean): void => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
