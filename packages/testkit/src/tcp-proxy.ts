import { once } from 'node:events';
import { type AddressInfo, createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/**
 * A loopback TCP proxy in front of a real server (PostgreSQL in the outage tests), which a test can
 * cut to make that server disappear for whoever connects through it, and only for them:
 * - `cut()`: every open connection is reset and the port stops listening, so new connections are
 *   refused (ECONNREFUSED), as when the database host goes down;
 * - `restore()`: listens again on the same port;
 * - `hold()` / `flush()`: keeps what the server sends, then delivers all of it in one write, so a
 *   client parses several server messages in one read (how a reply and a termination notice can
 *   arrive together over a real network).
 */
export interface TcpProxy {
  /** The proxy's own loopback port. */
  readonly port: number;
  /** Connections currently open through the proxy. */
  readonly openConnections: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  hold(): void;
  /** Delivers what was held, one write per connection, ending those the server closed meanwhile. */
  flush(): void;
  close(): Promise<void>;
}

interface Pipe {
  client: Socket;
  upstream: Socket;
  held: Buffer[];
  /** The server closed its side while we were holding: end the client's after the flush. */
  upstreamEnded: boolean;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pipes = new Set<Pipe>();
  let holding = false;
  let port = 0;
  let server: Server | undefined;

  const accept = (client: Socket): void => {
    const upstream = tcpConnect(target.port, target.host);
    const pipe: Pipe = { client, upstream, held: [], upstreamEnded: false };
    pipes.add(pipe);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (holding) pipe.held.push(chunk);
      else client.write(chunk);
    });
    upstream.on('end', () => {
      if (holding) pipe.upstreamEnded = true;
      else client.end();
    });
    const drop = (): void => {
      pipes.delete(pipe);
      client.destroy();
      upstream.destroy();
    };
    // A reset on either side ends the pair; the peer sees its socket close (or reset, after cut()).
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
  };

  const listen = async (): Promise<void> => {
    const next = createServer(accept);
    next.listen(port, '127.0.0.1');
    await once(next, 'listening');
    port = (next.address() as AddressInfo).port;
    server = next;
  };

  const stopListening = async (): Promise<void> => {
    const current = server;
    server = undefined;
    if (current === undefined) return;
    const closed = once(current, 'close');
    current.close();
    for (const pipe of pipes) {
      pipe.client.resetAndDestroy();
      pipe.upstream.destroy();
    }
    pipes.clear();
    await closed;
  };

  await listen();
  return {
    get port() {
      return port;
    },
    get openConnections() {
      return pipes.size;
    },
    cut: stopListening,
    restore: async () => {
      if (server === undefined) await listen();
    },
    hold: () => {
      holding = true;
    },
    flush: () => {
      holding = false;
      for (const pipe of [...pipes]) {
        if (pipe.held.length > 0) pipe.client.write(Buffer.concat(pipe.held.splice(0)));
        if (pipe.upstreamEnded) pipe.client.end();
      }
    },
    close: stopListening,
  };
}
