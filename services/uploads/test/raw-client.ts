import { connect, type Socket } from 'node:net';

/**
 * HTTP/1.1 written byte by byte on a raw TCP socket, so a test controls exactly where the client
 * stops: in the middle of the header block, after it, mid-body, one byte short of the end, after
 * the whole body without reading the answer, or partway through reading a download. Node's http
 * client cannot stop inside the header block.
 */

export interface RawTarget {
  /** `http://127.0.0.1:<port>` of the server. */
  baseUrl: string;
  /** Path (and query) of the request, e.g. `/api/capability-uploads/<id>`. */
  path: string;
}

/** The request line and headers, ending with the blank line. */
export function requestHead(target: RawTarget, method: string, headers: Record<string, string>): Buffer {
  const lines = [`${method} ${target.path} HTTP/1.1`, `Host: ${new URL(target.baseUrl).host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/** The head of an upload's PUT with its token, type and declared length. */
export function putHead(
  target: RawTarget,
  token: string,
  contentType: string,
  contentLength: number,
): Buffer {
  return requestHead(target, 'PUT', {
    Authorization: `Bearer ${token}`,
    'Content-Type': contentType,
    'Content-Length': String(contentLength),
  });
}

/** A connected socket to the target; the answer it gets is collected in `received()`. */
export interface RawConnection {
  readonly socket: Socket;
  write(bytes: Buffer): Promise<void>;
  /** Destroys the socket at once (an RST-free close of our side, without waiting for an answer). */
  hangUp(): void;
  /** Everything the server sent so far. */
  received(): Buffer;
  /** Resolves when the server closed the connection or it failed (reset), whichever comes first. */
  readonly closed: Promise<void>;
}

export interface OpenRawOptions {
  /** Destroys the socket as soon as this many bytes of the answer have arrived (a reader leaving mid-download). */
  hangUpAfterBytes?: number;
  /** Stops reading (the socket stays open) once this many bytes have arrived: a stalled reader. */
  pauseAfterBytes?: number;
}

export function openRaw(target: RawTarget, options: OpenRawOptions = {}): Promise<RawConnection> {
  const url = new URL(target.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const parts: Buffer[] = [];
    let length = 0;
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('data', (chunk: Buffer) => {
      parts.push(chunk);
      length += chunk.length;
      if (options.hangUpAfterBytes !== undefined && length >= options.hangUpAfterBytes) socket.destroy();
      if (options.pauseAfterBytes !== undefined && length >= options.pauseAfterBytes) socket.pause();
    });
    // A reset after we hung up, or the server cutting a refused body: the test looks at what arrived.
    socket.on('error', () => undefined);
    socket.once('connect', () =>
      resolve({
        socket,
        write: (bytes) =>
          new Promise((done, fail) => socket.write(bytes, (err) => (err ? fail(err) : done()))),
        hangUp: () => socket.destroy(),
        received: () => Buffer.concat(parts),
        closed,
      }),
    );
    socket.once('error', reject);
  });
}

/** The status code and JSON body of the first HTTP answer in `bytes`, or null while it is incomplete. */
export function parseAnswer(bytes: Buffer): { status: number; body: unknown } | null {
  const text = bytes.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const head = text.slice(0, end);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? Number.NaN);
  const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
  if (length === undefined) return { status, body: null };
  const body = bytes.subarray(end + 4, end + 4 + Number(length));
  if (body.length < Number(length)) return null;
  return { status, body: JSON.parse(body.toString('utf8')) };
}

/**
 * `http://127.0.0.1:<port>` of the uploads service's internal data server (DATA_PORT), read from its
 * `listening` log line (`uploadsLogs`: the service's output so far, e.g. `stack.logs('uploads')`).
 */
export function uploadsDataUrl(uploadsLogs: string): string {
  for (const line of uploadsLogs.split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry: { msg?: string; server?: string; port?: number } = JSON.parse(line);
    if (entry.msg === 'listening' && entry.server === 'data' && typeof entry.port === 'number')
      return `http://127.0.0.1:${entry.port}`;
  }
  throw new Error('the uploads service logged no data server port');
}
