import { connect } from 'node:net';
import { parseAnswer, type RawAnswer } from './raw-socket';

/**
 * A client on a real TCP connection that sends a request's head at once and its body a piece at a
 * time with pauses (the slow-body tests: a body that drips, one that is slow but keeps a pace), and
 * reads until the server closes the connection.
 */

export interface DripPlan {
  /** Method, path and headers; `Content-Length` is added from `pieces`, `Connection: close` unless `keepAlive`. */
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body, sent one piece per `intervalMs` (the first right after the head). */
  readonly pieces: readonly Buffer[];
  readonly intervalMs: number;
  /**
   * Leave out `Connection: close`: the server then keeps the connection after its answer (and reads
   * and drops a body it did not want) instead of closing it once it has answered.
   */
  readonly keepAlive?: boolean;
}

export interface DripOutcome {
  /** The first response, when one arrived before the close. */
  readonly answer: RawAnswer | undefined;
  /** Body pieces written before the server closed the connection (all of them: it was not cut). */
  readonly piecesSent: number;
  /** ms from the head to the close. */
  readonly closedAfterMs: number;
}

/** Sends `plan` to 127.0.0.1:`port`; rejects when the server has not closed within `timeoutMs`. */
export function drip(port: number, plan: DripPlan, timeoutMs: number): Promise<DripOutcome> {
  const length = plan.pieces.reduce((sum, piece) => sum + piece.length, 0);
  const head = [
    `${plan.method} ${plan.path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    ...Object.entries(plan.headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${length}`,
    // The server closes after a complete answer too, so every case ends with a close.
    ...(plan.keepAlive === true ? [] : ['Connection: close']),
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    const startedAt = performance.now();
    let piecesSent = 0;
    let closed = false;
    let pacer: NodeJS.Timeout | undefined;
    const sendNext = () => {
      const piece = plan.pieces[piecesSent];
      if (closed || piece === undefined) return;
      socket.write(piece, () => undefined);
      piecesSent += 1;
      pacer = setTimeout(sendNext, plan.intervalMs);
    };
    const deadline = setTimeout(() => {
      closed = true;
      clearTimeout(pacer);
      socket.destroy();
      const sofar = Buffer.concat(received).toString('utf8').slice(0, 300);
      reject(
        new Error(
          `the server did not close within ${timeoutMs} ms (sent ${piecesSent} pieces; got ${JSON.stringify(sofar)})`,
        ),
      );
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    // A reset after the answer arrived (the server closed while we were still sending) still counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (closed) return;
      closed = true;
      clearTimeout(pacer);
      clearTimeout(deadline);
      const raw = Buffer.concat(received).toString('utf8');
      resolve({
        answer: raw === '' ? undefined : parseAnswer(raw),
        piecesSent,
        closedAfterMs: performance.now() - startedAt,
      });
    });
    socket.write(head, sendNext);
  });
}

/** `body` cut into pieces of `size` bytes (the last may be shorter). */
export function piecesOf(body: Buffer | string, size: number): Buffer[] {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}
