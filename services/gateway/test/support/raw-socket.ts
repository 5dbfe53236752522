import { connect } from 'node:net';

/** What came back on a raw connection: the parsed head and body of the first response. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

// ms: a server that never answers fails the test here rather than at jest's timeout.
const ANSWER_TIMEOUT_MS = 10_000;

/** The status line, headers and body of the first response in `raw`. */
export function parseAnswer(raw: string): RawAnswer {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`no complete HTTP response head in ${JSON.stringify(raw.slice(0, 200))}`);
  const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, body: raw.slice(split + 4) };
}

/**
 * Writes `request` byte for byte on a fresh TCP connection (node:net: no HTTP client would send
 * these) and reads until the server closes. A reset after the answer arrived still counts.
 */
export function rawExchange(port: number, request: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`));
    }, ANSWER_TIMEOUT_MS);
    const finish = (err?: Error) => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('utf8');
      if (raw === '' && err) reject(err);
      else {
        try {
          resolve(parseAnswer(raw));
        } catch (parseErr) {
          reject(parseErr);
        }
      }
    };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (err) => finish(err));
    socket.on('close', () => finish());
    // The server may answer and close before the whole request is written (a 100 KB URL).
    socket.write(request, () => undefined);
  });
}
