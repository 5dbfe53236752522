import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback proxy that adds `Authorization: Bearer <apiKey>` to every request and forwards it to
 * `target` with every other header untouched (Host and Origin included, so DNS-rebinding checks
 * still see what the client sent). The MCP conformance suite sends no credentials; this keeps the
 * gateway's real authentication on while it runs.
 */
export interface AuthProxy {
  readonly url: string;
  close(): Promise<void>;
}

export function startAuthProxy(target: string, apiKey: string): Promise<AuthProxy> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${apiKey}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forwarded);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://localhost:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
