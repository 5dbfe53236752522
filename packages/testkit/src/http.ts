import type { Server } from 'node:http';

/** A response read in full: status, headers, the raw text and, when the text is JSON, its value. */
export interface FetchResult {
  status: number;
  headers: Headers;
  /** Parsed body; undefined when the body is empty or not JSON. */
  json: unknown;
  text: string;
}

/** `RequestInit` plus two conveniences for API tests. */
export interface StackFetchInit extends RequestInit {
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Serialised as the JSON body, with `Content-Type: application/json`. */
  json?: unknown;
}

// ms: one request of a test; a hung gateway fails the test instead of hitting jest's timeout.
const REQUEST_TIMEOUT_MS = 15_000;

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function fetchFull(url: string, init: StackFetchInit = {}): Promise<FetchResult> {
  const { apiKey, json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (apiKey !== undefined) headers.set('authorization', `Bearer ${apiKey}`);
  let body = rest.body;
  if (json !== undefined) {
    body = JSON.stringify(json);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const response = await fetch(url, {
    ...rest,
    headers,
    body,
    signal: rest.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: parseJson(text), text };
}

/** True when GET `url` answers 200 within `timeoutMs`; false on any other status or error. */
export async function answersOk(url: string, timeoutMs = 1_000): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer(); // drain, so the connection can be reused or closed
    return response.status === 200;
  } catch {
    return false;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Starts `server` on 127.0.0.1 at a free port and resolves with its `http://127.0.0.1:<port>` once
 * it accepts connections (a listen error rejects): the test servers' one way to listen.
 */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('test server has no TCP port');
  return `http://127.0.0.1:${address.port}`;
}
