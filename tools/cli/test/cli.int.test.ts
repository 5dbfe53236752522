import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onePagePdf, SHARED_STACK_BEFORE_ALL_MS, type SharedTestStack, sharedTestStack } from '@svc/testkit';
import { corruptingProxy, jsonOf, spawnPnpmSvc, spawnSvc, svc, svcInProcess } from './support';

/**
 * `svc` against the jest run's shared platform (gateway, registry, wallet, orchestrator, uploads, a
 * node worker; no browser worker): the key by SVC_API_KEY or a config file, `--json` output and the
 * exit codes of docs/decisions.md SC2. Most commands run in this process (svcInProcess: runCli, what
 * the bin runs, with the environment and cwd a child would get), since each child costs a node + tsx
 * start; the bin itself runs as a child where only a process shows the behaviour: exit codes and one
 * JSON value on stdout (in the first test), reading stdin (`svc login`), printing an error once, Ctrl-C.
 */

jest.setTimeout(180_000);

const SCOPES = [
  'capabilities:read',
  'capabilities:quote',
  'capabilities:run',
  'uploads:write',
  'artifacts:read',
  'billing:read',
];
const tag = randomBytes(4).toString('hex');

let stack: SharedTestStack;
let dir: string;
let env: Record<string, string>;
let key: { apiKey: string; keyId: string; clientId: string };

/** The run's state over the API (the CLI's own `status` is what is under test elsewhere). */
async function runState(runId: string): Promise<unknown> {
  const answer = await stack.fetch(`/api/capability-runs/${encodeURIComponent(runId)}`, {
    apiKey: key.apiKey,
  });
  expect(answer.status).toBe(200);
  return (answer.json as { status?: unknown }).status;
}

beforeAll(async () => {
  stack = await sharedTestStack();
  dir = await mkdtemp(join(tmpdir(), 'svc-cli-'));
  key = await stack.createApiKey({ scopes: SCOPES, balanceUsd: '5' });
  env = { HOME: dir, SVC_BASE_URL: stack.gatewayUrl, SVC_API_KEY: key.apiKey };
}, SHARED_STACK_BEFORE_ALL_MS);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('svc against the platform', () => {
  it('search and describe need no key; describe says whether a capability can be run', async () => {
    const noKey = { HOME: dir, SVC_BASE_URL: stack.gatewayUrl };
    // The bin as a child: exit 0 with one JSON value on stdout, and exit 5 below.
    const found = await svc(['search', 'redact', '--json'], noKey);
    expect(found.code).toBe(0);
    const slugs = (jsonOf(found).capabilities as Array<{ slug: string }>).map((c) => c.slug);
    expect(slugs).toContain('pii-redact');

    const human = await svcInProcess(['search', '--category', 'network', '--limit', '5'], noKey);
    expect(human.code).toBe(0);

    const described = await svcInProcess(['describe', 'pii-redact', '--json'], noKey);
    expect(described.code).toBe(0);
    expect(jsonOf(described)).toMatchObject({ ok: true, capability: { slug: 'pii-redact' } });

    const whois = await svcInProcess(['describe', 'whois'], noKey);
    expect(whois.code).toBe(0);
    expect(whois.stdout).toMatch(/cannot be run/);

    const unknown = await svc(['describe', `no-such-${tag}`, '--json'], noKey);
    expect(unknown.code).toBe(5);
    expect(jsonOf(unknown)).toMatchObject({ ok: false, status: 404, exit_code: 5 });
  });

  it('quotes, then runs pii-redact with --wait and --json (input from @file)', async () => {
    const input = { text: `Mail jane.${tag}@example.com` };
    const quoted = await svcInProcess(
      ['quote', 'pii-redact', '--input', JSON.stringify(input), '--json'],
      env,
    );
    expect(quoted.code).toBe(0);
    expect(jsonOf(quoted)).toMatchObject({ ok: true, quote: { slug: 'pii-redact' } });

    const file = join(dir, 'input.json');
    writeFileSync(file, JSON.stringify(input));
    const ran = await svcInProcess(
      ['run', 'pii-redact', '--input', '@input.json', '--wait', '--deadline', '60s', '--json'],
      env,
      {
        cwd: dir,
      },
    );
    expect(ran.code).toBe(0);
    const record = jsonOf(ran);
    expect(record).toMatchObject({ ok: true, status: 'completed', slug: 'pii-redact' });
    expect(JSON.stringify(record.result)).not.toContain(`jane.${tag}@example.com`);
    // Progress went to stderr as plain lines (not a terminal).
    expect(ran.stderr).toMatch(/quoted \d/);
    expect(ran.stderr).toContain(`run ${String(record.run_id)}: completed`);

    const status = await svcInProcess(['status', String(record.run_id), '--json'], env);
    expect(status.code).toBe(0);
    expect(jsonOf(status)).toMatchObject({ run_id: record.run_id, status: 'completed' });
    // Cancelling a finished run: 409, refused.
    const cancel = await svcInProcess(['cancel', String(record.run_id), '--json'], env);
    expect(cancel.code).toBe(3);
    expect(jsonOf(cancel)).toMatchObject({ ok: false, status: 409, exit_code: 3 });
  });

  it('refuses a describe_only capability before any quote (exit 3)', async () => {
    const quoted = await svcInProcess(
      ['quote', 'whois', '--input', '{"domain":"example.com"}', '--json'],
      env,
    );
    expect(quoted.code).toBe(3);
    expect(jsonOf(quoted)).toMatchObject({ ok: false, exit_code: 3, kind: 'CapabilityNotRunnableError' });
    const ran = await svcInProcess(['run', 'whois', '--input', '{"domain":"example.com"}', '--wait'], env);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toMatch(/describe_only/);
  });

  it('shows the balance and the usage statement', async () => {
    const balance = await svcInProcess(['balance', '--json'], env);
    expect(balance.code).toBe(0);
    expect(jsonOf(balance)).toMatchObject({ ok: true, currency: 'USD' });
    const human = await svcInProcess(['balance'], env);
    expect(human.stdout).toMatch(/remaining/);
    const usage = await svcInProcess(['usage', '--json'], env);
    expect(usage.code).toBe(0);
    expect(jsonOf(usage)).toMatchObject({ ok: true, totals: { runs: expect.any(Number) } });
    const bad = await svcInProcess(['usage', '--from', 'yesterday'], env);
    expect(bad.code).toBe(2);
  });

  it('uploads a PDF, runs pdf-extract-text on it and downloads the verified artifacts', async () => {
    const pdf = join(dir, 'letter.pdf');
    writeFileSync(pdf, onePagePdf(`Hello ${tag}`));
    const uploaded = await svcInProcess(['upload', 'pdf-extract-text', 'letter.pdf'], env, { cwd: dir });
    expect(uploaded.code).toBe(0);
    const uploadId = uploaded.stdout.trim();
    expect(uploadId).toMatch(/^[0-9a-f-]{36}$/);

    const ran = await svcInProcess(
      ['run', 'pdf-extract-text', '--input', JSON.stringify({ upload_id: uploadId }), '--wait', '--json'],
      env,
    );
    expect(ran.code).toBe(0);
    const runId = String(jsonOf(ran).run_id);

    const out = join(dir, 'out');
    const listed = await svcInProcess(['artifacts', runId, '--download', out, '--json'], env);
    expect(listed.code).toBe(0);
    const manifest = jsonOf(listed) as {
      artifacts: Array<{ name: string; sha256: string; size_bytes: number }>;
      downloaded: Array<{ name: string; path: string; sha256: string }>;
    };
    expect(manifest.artifacts.length).toBeGreaterThan(0);
    expect(manifest.downloaded.map((d) => d.name)).toEqual(manifest.artifacts.map((a) => a.name));
    for (const artifact of manifest.artifacts) {
      const bytes = readFileSync(join(out, artifact.name));
      expect(bytes.length).toBe(artifact.size_bytes);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(artifact.sha256);
    }
    const text = manifest.artifacts.find((a) => a.name.endsWith('.txt'));
    if (text) expect(readFileSync(join(out, text.name), 'utf8')).toContain(tag);

    // A download with a flipped byte is refused (exit 1) and nothing is left in DIR.
    const proxy = await corruptingProxy(stack.gatewayUrl);
    try {
      const bad = join(dir, 'bad');
      const corrupted = await svcInProcess(['artifacts', runId, '--download', bad, '--json'], {
        ...env,
        SVC_BASE_URL: proxy.url,
      });
      expect(corrupted.code).toBe(1);
      expect(jsonOf(corrupted)).toMatchObject({ ok: false, exit_code: 1, kind: 'ArtifactIntegrityError' });
      expect(readdirSync(bad)).toEqual([]);
    } finally {
      await proxy.close();
    }

    // A file describe rules out: refused before any byte is sent.
    writeFileSync(join(dir, 'table.csv'), 'a,b\n1,2\n');
    const refused = await svcInProcess(['upload', 'pdf-extract-text', join(dir, 'table.csv'), '--json'], env);
    expect(refused.code).toBe(3);
    expect(jsonOf(refused)).toMatchObject({ kind: 'UploadRejectedError' });
  });

  it('runs crt (fake CT providers) with and without --wait; a public suffix is refused (exit 3)', async () => {
    const apex = `cli-${tag}.com`;
    const waited = await svcInProcess(
      ['run', 'crt', '--input', JSON.stringify({ apex, limit: 5 }), '--wait', '--json'],
      env,
    );
    expect(waited.code).toBe(0);
    const record = jsonOf(waited);
    expect(record).toMatchObject({
      ok: true,
      slug: 'crt',
      status: 'completed',
      result: { status: 'completed', apex, limit: 5, live_hosts_verified: false },
    });
    expect(waited.stderr).toMatch(/quoted 0(\.0+)? USD/);

    // Without --wait: crt answers at once (its synchronous §4.5 answer); human stdout is the run id.
    const started = await svcInProcess(
      ['run', 'crt', '--input', JSON.stringify({ apex: `cli2-${tag}.com` })],
      env,
    );
    expect(started.code).toBe(0);
    const runId = started.stdout.trim();
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    const status = await svcInProcess(['status', runId, '--json'], env);
    expect(jsonOf(status)).toMatchObject({ run_id: runId, slug: 'crt', status: 'completed' });

    const suffix = await svcInProcess(['run', 'crt', '--input', '{"apex":"co.uk"}', '--wait', '--json'], env);
    expect(suffix.code).toBe(3);
    expect(jsonOf(suffix)).toMatchObject({ ok: false, status: 422, exit_code: 3 });
  });

  it('lists runs: one page with the next-page hint, --cursor, --all, filters', async () => {
    // A client of its own, so the list holds exactly the runs made here.
    const key = await stack.createApiKey({ scopes: SCOPES, balanceUsd: '1' });
    const own = { ...env, SVC_API_KEY: key.apiKey };
    const ids: string[] = [];
    for (const n of [1, 2]) {
      const started = await svcInProcess(
        ['run', 'crt', '--input', JSON.stringify({ apex: `runs${n}-${tag}.com` })],
        own,
      );
      expect(started.code).toBe(0);
      ids.push(started.stdout.trim());
    }
    const newestFirst = [...ids].reverse();

    const first = await svcInProcess(['runs', '--limit', '1', '--json'], own);
    expect(first.code).toBe(0);
    const page = jsonOf(first) as {
      ok: boolean;
      runs: Array<{ run_id: string }>;
      next_cursor: string | null;
    };
    expect(page.runs.map((run) => run.run_id)).toEqual(newestFirst.slice(0, 1));
    expect(page.next_cursor).toEqual(expect.any(String));
    const second = jsonOf(
      await svcInProcess(['runs', '--limit', '1', '--cursor', String(page.next_cursor), '--json'], own),
    );
    expect((second.runs as Array<{ run_id: string }>).map((run) => run.run_id)).toEqual(newestFirst.slice(1));

    const all = jsonOf(
      await svcInProcess(['runs', '--all', '--limit', '1', '--state', 'completed', '--json'], own),
    );
    expect(all).toMatchObject({ ok: true, next_cursor: null });
    expect((all.runs as Array<{ run_id: string }>).map((run) => run.run_id)).toEqual(newestFirst);

    const human = await svcInProcess(['runs', '--limit', '1'], own);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(newestFirst[0]);
    expect(human.stdout).toMatch(/crt.*completed/);
    expect(human.stderr).toMatch(/more: svc runs --cursor \S+/);
    const none = await svcInProcess(['runs', '--capability', 'pii-redact'], own);
    expect(none.stdout.trim()).toBe('no runs');
    const badCursor = await svcInProcess(['runs', '--cursor', 'not-a-cursor', '--json'], own);
    expect(badCursor.code).toBe(3);
    expect(jsonOf(badCursor)).toMatchObject({ ok: false, status: 422 });
  });

  it('cancels a queued run; a --wait past its --deadline cancels the run on the server (exit 4)', async () => {
    // html-to-pdf needs a browser worker, which the shared platform has none of: runs stay queued.
    const started = await svcInProcess(
      ['run', 'html-to-pdf', '--input', JSON.stringify({ html: `<p>${tag}</p>` })],
      env,
    );
    expect(started.code).toBe(0);
    const runId = started.stdout.trim();
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    const cancelled = await svcInProcess(['cancel', runId, '--json'], env);
    expect(cancelled.code).toBe(0);
    expect(jsonOf(cancelled)).toMatchObject({ run_id: runId, status: 'cancelled' });

    const waited = await svcInProcess(
      [
        'run',
        'html-to-pdf',
        '--input',
        JSON.stringify({ html: `<p>${tag} 2</p>` }),
        '--wait',
        '--deadline',
        '3s',
        '--json',
      ],
      env,
    );
    expect(waited.code).toBe(4);
    const error = jsonOf(waited);
    expect(error).toMatchObject({
      ok: false,
      exit_code: 4,
      kind: 'DeadlineExceededError',
      run_status: 'cancelled',
    });
    const status = await svcInProcess(['status', String(error.run_id), '--json'], env);
    expect(jsonOf(status)).toMatchObject({ status: 'cancelled' });

    const unknown = await svcInProcess(['status', randomUUID(), '--json'], env);
    expect(unknown.code).toBe(5);
  });

  it('Ctrl-C during run --wait cancels the run on the server and exits 130', async () => {
    const running = spawnSvc(
      ['run', 'html-to-pdf', '--input', JSON.stringify({ html: `<p>${tag} 3</p>` }), '--wait'],
      env,
    );
    const started = await running.stderrLine(/^run [0-9a-f-]{36} started/);
    const runId = /^run ([0-9a-f-]{36})/.exec(started)?.[1] ?? '';
    running.child.kill('SIGINT');
    const result = await running.exit;
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/svc: interrupted \(SIGINT\); cancelling/);
    const status = await svcInProcess(['status', runId, '--json'], env);
    expect(jsonOf(status)).toMatchObject({ run_id: runId, status: 'cancelled' });
  });

  // The README's command at a terminal: Ctrl-C sends SIGINT to the whole job, pnpm and svc alike,
  // and pnpm, exiting at once, sends svc SIGTERM (execa's cleanup). html-to-pdf needs a browser
  // worker, which this platform has none of (requires_worker): the run stays queued until cancelled.
  it('Ctrl-C on `pnpm svc run … --wait` (SIGINT to its process group) cancels the queued run', async () => {
    const job = spawnPnpmSvc(
      ['run', 'html-to-pdf', '--input', JSON.stringify({ html: `<p>${tag} pnpm</p>` }), '--wait'],
      env,
    );
    try {
      const runId = /^run (\S+) started/.exec(await job.stderrLine(/^run \S+ started/))?.[1] ?? '';
      job.interrupt();
      const pnpm = await job.exit;
      // pnpm re-raises the SIGINT on itself: a shell sees 130.
      expect(pnpm.signal === 'SIGINT' || pnpm.code === 130).toBe(true);
      // svc outlives pnpm until the cancel has its answer, then says how it ended.
      await job.gone(60_000);
      expect(await runState(runId)).toBe('cancelled');
      const { stderr } = job.output();
      expect(stderr).toMatch(/svc: interrupted \(SIG(INT|TERM)\); cancelling/);
      expect(stderr).toContain(`run ${runId} was cancelled on the server; nothing is charged`);
    } finally {
      job.kill();
    }
  });

  it('…and so when nobody reads its output any more (EPIPE: `pnpm svc … | jq` after Ctrl-C)', async () => {
    const job = spawnPnpmSvc(
      ['run', 'html-to-pdf', '--input', JSON.stringify({ html: `<p>${tag} epipe</p>` }), '--wait', '--json'],
      env,
    );
    try {
      const runId = /^run (\S+) started/.exec(await job.stderrLine(/^run \S+ started/))?.[1] ?? '';
      job.child.stdout?.destroy();
      job.child.stderr?.destroy();
      job.interrupt();
      await job.gone(60_000);
      expect(await runState(runId)).toBe('cancelled');
    } finally {
      job.kill();
    }
  });

  it('prints an error once (run --wait with a key the platform does not know)', async () => {
    const refused = await svc(['run', 'pii-redact', '--input', '{"text":"x"}', '--wait'], {
      ...env,
      SVC_API_KEY: `svc_unknown_${tag}`,
    });
    expect(refused.code).toBe(3);
    const lines = refused.stderr.split('\n').filter((line) => line.includes('401'));
    expect(lines).toEqual([expect.stringMatching(/^svc: 401 /)]);
  });

  it('whoami: the client, key id and scopes of the key (human and --json)', async () => {
    const human = await svcInProcess(['whoami'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(key.keyId);
    expect(human.stdout).toContain(key.clientId);
    expect(human.stdout).toContain('capabilities:run');
    const json = await svcInProcess(['whoami', '--json'], env);
    expect(json.code).toBe(0);
    expect(jsonOf(json)).toEqual({
      ok: true,
      client_id: key.clientId,
      client_name: expect.any(String),
      key_id: key.keyId,
      scopes: expect.arrayContaining(SCOPES),
    });
    const refused = await svcInProcess(['whoami', '--json'], { ...env, SVC_API_KEY: `svc_unknown_${tag}` });
    expect(refused.code).toBe(3);
    expect(jsonOf(refused)).toMatchObject({ ok: false, status: 401, exit_code: 3 });
  });

  it('takes the key from a config file only its owner can read; never from a flag', async () => {
    const home = join(dir, 'home');
    const configDir = join(home, '.config', 'svc');
    mkdirSync(configDir, { recursive: true });
    const config = join(configDir, 'config.json');
    writeFileSync(config, JSON.stringify({ base_url: stack.gatewayUrl, api_key: env.SVC_API_KEY }));
    chmodSync(config, 0o644);
    const refused = await svcInProcess(['balance', '--json'], { HOME: home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`chmod 600 '${config}'`);
    expect(refused.stderr).not.toContain(env.SVC_API_KEY);

    chmodSync(config, 0o600);
    const ok = await svcInProcess(['balance', '--json'], { HOME: home });
    expect(ok.code).toBe(0);

    const noKey = await svcInProcess(['balance'], { HOME: dir, SVC_BASE_URL: stack.gatewayUrl });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/SVC_API_KEY/);
    const flag = await svcInProcess(['balance', '--api-key', 'x'], env);
    expect(flag.code).toBe(2);

    // svc login: the key from stdin into a mode-600 file.
    const loginHome = join(dir, 'login-home');
    // A real process: the key is read from its stdin.
    const login = await svc(
      ['login', '--base-url', stack.gatewayUrl],
      { HOME: loginHome },
      { stdin: `${env.SVC_API_KEY}\n` },
    );
    expect(login.code).toBe(0);
    const afterLogin = await svcInProcess(['balance', '--json'], { HOME: loginHome });
    expect(afterLogin.code).toBe(0);

    const wrongKey = await svcInProcess(['balance', '--json'], { ...env, SVC_API_KEY: `svc_wrong_${tag}` });
    expect(wrongKey.code).toBe(3);
    expect(jsonOf(wrongKey)).toMatchObject({ status: 401 });
  });

  it('runs the contract checker (`svc contract check`)', async () => {
    const checked = await svcInProcess(
      [
        'contract',
        'check',
        '--baseline',
        'contract/manifest.json',
        '--candidate',
        'contract/manifest.json',
        '--json',
      ],
      {},
    );
    expect(checked.code).toBe(0);
    const usage = await svcInProcess(['contract', 'check'], {});
    expect(usage.code).toBe(2);
  });
});
