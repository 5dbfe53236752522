import { type ClientRequest, type IncomingMessage, request } from 'node:http';

/**
 * node:http requests for the streaming tests, where fetch hides what matters: a body sent in
 * chunks with pauses in between, a connection cut mid-way, the first bytes of an answer before
 * its end.
 */

export interface RawExchange {
  /** The request: write body chunks, end() it, or destroy() it to cut the connection. */
  readonly request: ClientRequest;
  /** Resolves with the response as soon as its headers arrive. */
  readonly response: Promise<IncomingMessage>;
}

export function rawRequest(url: string, method: string, headers: Record<string, string>): RawExchange {
  const req = request(url, { method, headers, agent: false });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
  // A test that cuts the connection on purpose does not await `response`; keep its rejection quiet.
  response.catch(() => undefined);
  return { request: req, response };
}

/** The whole body of a response. */
export async function bodyOf(response: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
}

/** `promise`, or a failure naming `what` after `ms` (default 2 s): a hang fails fast instead of at the jest timeout. */
export async function within<T>(promise: Promise<T>, what: string, ms = 2_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
