import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type LoopbackServer, sendJson, startLoopbackServer } from '../../test/support/loopback-server';
import { crtShProvider } from './crt-sh';
import type { ProviderSettings } from './ct-provider';
import { ProviderError } from './provider-error';

const FIXTURE = readFileSync(path.join(__dirname, '../../test/fixtures/crtsh-example-com.json'), 'utf8');
const never = new AbortController().signal;

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function settings(baseUrl: string, overrides: Partial<ProviderSettings> = {}): ProviderSettings {
  return {
    baseUrl,
    timeoutMs: 5_000,
    maxBytes: 64 * 1024 * 1024,
    // No waiting between attempts: jitter 0 makes every backoff 0 ms.
    retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 },
    random: () => 0,
    ...overrides,
  };
}

const budget = () => ({ deadline: Date.now() + 30_000, signal: never });

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(error instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

describe('crt.sh provider', () => {
  it('parses a recorded answer: wildcards, case, e-mails, suffix traps, several names per row, null times', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(FIXTURE);
    });
    const answer = await crtShProvider(settings(`${server.url}/crtsh/`)).fetchHostnames(
      'example.com',
      budget(),
    );
    expect(answer.provider).toBe('crt.sh');
    expect(answer.truncated).toBe(false);
    expect(
      answer.entries.map(([name, ms]) => [name, ms === null ? null : new Date(ms).toISOString()]),
    ).toEqual([
      ['api.example.com', '2022-07-01T10:00:00.000Z'],
      // `  dev.example.com  \r` in a row of 2022; a later row without any time does not erase it
      ['dev.example.com', '2022-07-01T10:00:00.000Z'],
      // `*.Example.com` in the 2024-03 row is earlier than the 2024-11 row naming example.com
      ['example.com', '2024-03-05T12:34:56.789Z'],
      // entry_timestamp null: not_before is used
      ['mail.example.com', '2023-01-15T00:00:00.000Z'],
      ['www.example.com', '2024-03-05T12:34:56.789Z'],
    ]);
    const [request] = server.requests;
    expect(request?.path).toBe('/crtsh/');
    expect(request?.query.get('q')).toBe('%.example.com');
    expect(request?.query.get('output')).toBe('json');
    expect(request?.headers['user-agent']).toMatch(/^capability-service-crt\//);
  });

  it('keeps a hostname whose every entry lacks a time, without a time', async () => {
    server = await startLoopbackServer((_req, res) =>
      sendJson(res, [{ name_value: 'x.example.com', entry_timestamp: null, not_before: null }]),
    );
    const answer = await crtShProvider(settings(server.url)).fetchHostnames('example.com', budget());
    expect(answer.entries).toEqual([['x.example.com', null]]);
  });

  it('retries a 502 and returns the answer of the next attempt', async () => {
    server = await startLoopbackServer((_req, res, n) =>
      n === 1
        ? sendJson(res, { error: 'overloaded' }, 502)
        : sendJson(res, [{ name_value: 'a.example.com' }]),
    );
    const answer = await crtShProvider(settings(server.url)).fetchHostnames('example.com', budget());
    expect(answer.entries.map(([name]) => name)).toEqual(['a.example.com']);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 429 (Retry-After: 0) and a connection cut mid-body', async () => {
    server = await startLoopbackServer((_req, res, n) => {
      if (n === 1) return sendJson(res, [], 429, { 'retry-after': '0' });
      if (n === 2) {
        // Headers and half an array, then the socket dies: a network error, worth retrying.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[{"name_value":"a.example.com"},{"name_val');
        setImmediate(() => res.socket?.destroy());
        return;
      }
      sendJson(res, [{ name_value: 'b.example.com' }]);
    });
    const answer = await crtShProvider(settings(server.url)).fetchHostnames('example.com', budget());
    // Rows read before the cut are genuine observations and are kept with the complete answer.
    expect(answer.entries.map(([name]) => name)).toEqual(['a.example.com', 'b.example.com']);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 404 and says which status it got', async () => {
    server = await startLoopbackServer((_req, res) => sendJson(res, { error: 'nope' }, 404));
    const error = await failureOf(
      crtShProvider(settings(server.url)).fetchHostnames('example.com', budget()),
    );
    expect(error.describe()).toBe('HTTP 404');
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after the attempts on a provider that keeps failing with 5xx', async () => {
    server = await startLoopbackServer((_req, res) => sendJson(res, {}, 503));
    const error = await failureOf(
      crtShProvider(settings(server.url)).fetchHostnames('example.com', budget()),
    );
    expect(error.describe()).toBe('HTTP 503 (after 3 attempts)');
    expect(server.requests).toHaveLength(3);
  });

  it('times out an attempt that never answers, and retries it', async () => {
    server = await startLoopbackServer(() => {
      // never answers
    });
    const provider = crtShProvider(settings(server.url, { timeoutMs: 150 }));
    const error = await failureOf(provider.fetchHostnames('example.com', budget()));
    expect(error.describe()).toBe('timed out after 150 ms (after 3 attempts)');
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry an answer that is not JSON, or JSON cut off mid-array', async () => {
    server = await startLoopbackServer((_req, res, n) => {
      res.writeHead(200, { 'content-type': n === 1 ? 'text/html' : 'application/json' });
      res.end(n === 1 ? '<html><body>Bad Gateway</body></html>' : '[{"name_value":"a.example.com"},{"na');
    });
    const provider = crtShProvider(settings(server.url));
    expect((await failureOf(provider.fetchHostnames('example.com', budget()))).describe()).toBe(
      'answer is not a JSON array',
    );
    expect((await failureOf(provider.fetchHostnames('example.com', budget()))).describe()).toBe(
      'answer ended in the middle of the JSON array',
    );
    expect(server.requests).toHaveLength(2);
  });

  it('fails at once when the budget is already spent', async () => {
    server = await startLoopbackServer((_req, res) => sendJson(res, []));
    const error = await failureOf(
      crtShProvider(settings(server.url)).fetchHostnames('example.com', {
        deadline: Date.now() - 1,
        signal: never,
      }),
    );
    expect(error.describe()).toBe('no time left in the run deadline');
    expect(server.requests).toHaveLength(0);
  });

  it('cuts a huge streamed answer at the byte cap, keeps what it parsed, and stops downloading', async () => {
    const cap = 2 * 1024 * 1024;
    let sent = 0;
    let closed: Promise<void> = Promise.resolve();
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      closed = new Promise((resolve) => res.on('close', () => resolve()));
      // Up to 1 GiB of rows, written only as fast as the client reads (backpressure).
      let row = 0;
      const pump = () => {
        while (sent < 1024 * 1024 * 1024 && !res.destroyed) {
          const chunk = `${row === 0 ? '[' : ','}${JSON.stringify({
            id: row,
            name_value: `h${row}.example.com\n*.h${row}.example.com`,
            entry_timestamp: '2024-01-01T00:00:00.000',
          })}`;
          row += 1;
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end(']');
      };
      pump();
    });
    // Parsing 2 MiB of rows takes seconds on a loaded 2-core machine: this test is about the byte
    // cap, so the per-request timeout is far from it (5 s timed out on CI with two jest workers).
    const provider = crtShProvider(settings(server.url, { maxBytes: cap, timeoutMs: 60_000 }));
    const answer = await provider.fetchHostnames('example.com', budget());
    await closed;
    expect(answer.truncated).toBe(true);
    expect(answer.bytes).toBe(cap);
    expect(answer.entries.length).toBeGreaterThan(10_000);
    // The server stopped once we hung up: far less than the 1 GiB it offered (socket buffers only).
    expect(sent).toBeLessThan(cap + 16 * 1024 * 1024);
  });
});
