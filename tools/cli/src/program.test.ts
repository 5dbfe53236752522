import { SvcClient } from '@svc/sdk';
import type { Io } from './output';
import { runCli } from './program';

const RUN_ID = '7d1f6d4e-4a59-4f0b-9a59-2f6a1e0c9b11';

interface Captured {
  io: Io;
  stdout: () => string;
  stderr: () => string;
}

function capture(): Captured {
  let out = '';
  let err = '';
  return {
    io: {
      stdout: (text) => {
        out += text;
      },
      stderr: (text) => {
        err += text;
      },
      interactive: false,
      color: false,
    },
    stdout: () => out,
    stderr: () => err,
  };
}

/** runCli with a client whose fetch answers every request with `status` and `body`. */
async function cli(
  argv: string[],
  answer?: { status: number; body: unknown },
  env: Record<string, string> = {},
) {
  const captured = capture();
  const requests: string[] = [];
  const fetchStub = (async (url: string | URL | Request, init?: RequestInit) => {
    requests.push(`${init?.method ?? 'GET'} ${new URL(String(url)).pathname}`);
    const { status, body } = answer ?? { status: 500, body: { ok: false, error: 'no answer set' } };
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  const code = await runCli(argv, {
    io: captured.io,
    env: { HOME: '/nonexistent-home', SVC_API_KEY: 'svc_test_key', SVC_BASE_URL: 'http://svc.test', ...env },
    cwd: '/tmp',
    makeClient: (config, apiKey) =>
      new SvcClient({
        baseUrl: config.baseUrl,
        ...(apiKey === undefined ? {} : { apiKey }),
        fetch: fetchStub,
        retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
      }),
  });
  return { code, stdout: captured.stdout(), stderr: captured.stderr(), requests };
}

describe('svc argument parsing', () => {
  it('prints help with the exit codes (exit 0); no command is a usage error', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Exit codes:[\s\S]*3 {2}refused[\s\S]*4 {2}unavailable/);
    expect(help.stdout).toContain('SVC_API_KEY');
    expect((await cli([])).code).toBe(2);
  });

  it.each([
    [['bogus']],
    [['balance', '--api-key', 'svc_x']],
    [['describe']],
    [['quote', 'pii-redact']],
    [['quote', 'pii-redact', '--input', '[1]']],
    [['quote', 'pii-redact', '--input', '{bad']],
    [['run', 'pii-redact', '--input', '{}', '--deadline', '5s']],
    [['run', 'pii-redact', '--input', '{}', '--wait', '--deadline', 'soon']],
    [['search', '--limit', '0']],
    [['usage', '--from', 'yesterday']],
    [['runs', '--state', 'sleeping']],
    [['runs', '--limit', '101']],
    [['runs', '--to', 'tomorrow']],
    [['contract', 'check']],
  ])('%j is a usage error (exit 2) and sends nothing', async (argv) => {
    const result = await cli(argv);
    expect(result.code).toBe(2);
    expect(result.requests).toEqual([]);
  });

  it('with --json, a usage error is a JSON error object on stdout', async () => {
    const result = await cli(['quote', 'pii-redact', '--input', '[1]', '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: false,
      status: null,
      exit_code: 2,
      kind: 'UsageError',
    });
    const unknown = await cli(['balance', '--nope', '--json']);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ ok: false, exit_code: 2 });
  });

  it('refuses a command that needs a key without one, naming where to put it', async () => {
    const result = await cli(['balance'], undefined, { SVC_API_KEY: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/needs an API key: set SVC_API_KEY, or run `svc login`/);
    expect(result.requests).toEqual([]);
  });
});

describe('svc exit codes from answers', () => {
  it.each([
    [404, { ok: false, error: `unknown run: ${RUN_ID}` }, 5],
    [409, { ok: false, error: 'the run is already completed' }, 3],
    [403, { ok: false, error: 'missing scope capabilities:run' }, 3],
    [503, { ok: false, error: 'the orchestrator is unavailable' }, 4],
  ])('cancel answered %d %j → exit %d, with the JSON error object', async (status, body, code) => {
    const result = await cli(['cancel', RUN_ID, '--json'], { status, body });
    expect(result.code).toBe(code);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: false,
      error: body.error,
      status,
      exit_code: code,
      kind: expect.any(String),
    });
    expect(result.stderr).toContain(body.error);
    expect(result.requests).toEqual([`POST /api/capability-runs/${RUN_ID}/cancel`]);
  });
});
