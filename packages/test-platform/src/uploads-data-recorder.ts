import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type ServerResponse,
} from 'node:http';
import { listenOnLoopback } from '@svc/testkit';

/**
 * A loopback HTTP server in front of the uploads service's internal port (DATA_PORT), which the
 * gateway's PUT and download routes stream to. It forwards every request to the real service (the
 * in-process platform's data server) and records it as it happens (headers, bytes received so far,
 * whether the body ended or the connection was cut), so tests can check that bytes flow before the
 * client has finished (streaming, not buffering) and that a client's abort reaches this side. A test
 * replaces `handler` for what the real service does not do (slow answers, broken streams).
 */

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** Body bytes received so far. */
  received: number;
  /** The body arrived complete. */
  ended: boolean;
  /** The connection closed before the request body (or our response) was complete. */
  aborted: boolean;
}

export type DataHandler = (req: IncomingMessage, res: ServerResponse, seen: SeenRequest) => void;

export interface UploadsDataRecorder {
  readonly url: string;
  readonly requests: SeenRequest[];
  /** Replace for one test; `reset()` puts the forwarding to the real service back. */
  handler: DataHandler;
  reset(): void;
  close(): Promise<void>;
}

/** Forwards the request to `target` as it arrives and streams the answer back. */
function forwardTo(target: string): DataHandler {
  return (req, res) => {
    const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };
}

export async function startUploadsDataRecorder(target: string): Promise<UploadsDataRecorder> {
  const requests: SeenRequest[] = [];
  const forward = forwardTo(target);
  const state = { handler: forward };
  const server = createServer((req, res) => {
    const seen: SeenRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      received: 0,
      ended: false,
      aborted: false,
    };
    requests.push(seen);
    req.on('data', (chunk: Buffer) => {
      seen.received += chunk.length;
    });
    req.on('end', () => {
      seen.ended = true;
    });
    res.on('close', () => {
      if (!seen.ended || !res.writableFinished) seen.aborted = true;
    });
    state.handler(req, res, seen);
  });
  const url = await listenOnLoopback(server);
  return {
    url,
    requests,
    get handler() {
      return state.handler;
    },
    set handler(handler: DataHandler) {
      state.handler = handler;
    },
    reset: () => {
      state.handler = forward;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
