import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** A request the server saw (for asserting what a provider client sent). */
export interface SeenRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
}

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * An HTTP server on 127.0.0.1 with a free port, answering with `handle` (the n-th request gets
 * `n`, from 1). Unit tests point provider clients at it: real sockets, no mocked fetch.
 */
export async function startLoopbackServer(
  handle: (request: IncomingMessage, response: ServerResponse, n: number) => void,
): Promise<LoopbackServer> {
  const requests: SeenRequest[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push({ path: url.pathname, query: url.searchParams, headers: request.headers });
    handle(request, response, requests.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('loopback server has no TCP port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging answers and keep-alive sockets would hold close() forever.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers `status` with a JSON body. */
export function sendJson(
  response: ServerResponse,
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}
