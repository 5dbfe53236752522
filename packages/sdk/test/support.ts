import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy saw: one line per request. */
export interface SeenRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
}

/**
 * A loopback HTTP proxy in front of the gateway for the SDK suite: it records every request and can
 * misbehave on purpose. The Host header is passed on unchanged, so the links the gateway hands out
 * (upload_url, download_url) point back at the proxy.
 */
export class FaultProxy {
  readonly seen: SeenRequest[] = [];
  /** POST …/run requests whose answer is dropped (after the gateway handled them) and replaced by a 503. */
  dropRunAnswers = 0;
  /** POST …/run requests answered 503 at once, without reaching the gateway. */
  refuseRunPosts = 0;
  /** Flip one byte of every artifact download's body. */
  corruptDownloads = false;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(target: string): Promise<FaultProxy> {
    const upstream = new URL(target);
    let proxy: FaultProxy | undefined;
    const server = createServer((req, res) => {
      proxy?.handle(req, res, upstream);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new FaultProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return proxy;
  }

  /** Requests seen whose path matches. */
  matching(method: string, pattern: RegExp): SeenRequest[] {
    return this.seen.filter((seen) => seen.method === method && pattern.test(seen.path));
  }

  private handle(req: IncomingMessage, res: import('node:http').ServerResponse, upstream: URL): void {
    const path = req.url ?? '/';
    const key = req.headers['idempotency-key'];
    this.seen.push({
      method: req.method ?? 'GET',
      path,
      idempotencyKey: typeof key === 'string' ? key : undefined,
    });
    const isRunPost = req.method === 'POST' && /\/run$/.test(path.split('?')[0] ?? '');
    if (isRunPost && this.refuseRunPosts > 0) {
      this.refuseRunPosts--;
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(JSON.stringify({ ok: false, error: 'proxy: the gateway is unavailable' }));
      return;
    }
    const dropAnswer = isRunPost && this.dropRunAnswers > 0;
    if (dropAnswer) this.dropRunAnswers--;
    const corrupt = this.corruptDownloads && /^\/api\/artifacts\/[^/]+\/download/.test(path);
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path, headers: req.headers },
      (answer) => {
        if (dropAnswer) {
          // The gateway did the work; the client never hears of it.
          answer.resume();
          answer.on('end', () => {
            res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
            res.end(JSON.stringify({ ok: false, error: 'proxy: the answer was lost' }));
          });
          return;
        }
        if (!corrupt) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          if (body.length > 0)
            body[Math.floor(body.length / 2)] = (body[Math.floor(body.length / 2)] ?? 0) ^ 0x01;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(body);
        });
      },
    );
    forward.on('error', () => {
      res.destroy();
    });
    req.pipe(forward);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A fetch that counts requests by method and path before passing them to the real fetch. */
export function spyFetch(): { fetch: typeof fetch; seen: string[] } {
  const seen: string[] = [];
  const spy = ((input: string | URL | Request, init?: RequestInit) => {
    seen.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
    return fetch(input, init);
  }) as typeof fetch;
  return { fetch: spy, seen };
}
