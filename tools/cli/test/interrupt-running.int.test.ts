import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type FakeCtProviders,
  pollUntil,
  startFakeCtProviders,
  startTestStack,
  type TestApiKey,
  type TestStack,
} from '@svc/testkit';
import { spawnPnpmSvc } from './support';

/**
 * Ctrl-C on `pnpm svc run … --wait` while the run is already running (docs/decisions.md SC12): the
 * terminal's SIGINT reaches pnpm and svc; svc survives pnpm's exit (and its SIGTERM), sends the
 * cancel, and says what the cooperative cancel (spec §3) means for the bill. A private platform:
 * only its own fake CT providers can hold a crt run in `running` (the shared one answers at once).
 */

jest.setTimeout(180_000);

const SCOPES = ['capabilities:read', 'capabilities:quote', 'capabilities:run', 'billing:read'];
const tag = randomBytes(4).toString('hex');

let fake: FakeCtProviders;
let stack: TestStack;
let key: TestApiKey;
let home: string;

beforeAll(async () => {
  fake = await startFakeCtProviders();
  stack = await startTestStack({
    services: ['registry', 'wallet', 'orchestrator', 'uploads', 'worker', 'gateway'],
    env: {
      CRT_SH_URL: fake.crtShUrl,
      CERTSPOTTER_URL: fake.certSpotterUrl,
      // ms: the crt route answers 202 (running) after half a second instead of waiting for the run.
      CRT_RUN_WAIT_MS: '500',
      CRT_CACHE_TTL_MS: '0',
      WORKER_RUNTIMES: 'node',
    },
    // ms: six tsx processes compiling at once on a busy 2-core machine.
    startTimeoutMs: 150_000,
  });
  key = await stack.createApiKey({ scopes: SCOPES, balanceUsd: '5' });
  home = await mkdtemp(join(tmpdir(), 'svc-interrupt-'));
}, 200_000);

afterAll(async () => {
  await stack?.close();
  await fake?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

it('Ctrl-C on `pnpm svc run … --wait` of a running run: the cancel is requested, and svc says what may be charged', async () => {
  // crt.sh answers after 30 s: the run stays `running` until the cancel stops it.
  fake.setBehaviour('crtsh', 'delay:30000', { times: 1 });
  const job = spawnPnpmSvc(
    ['run', 'crt', '--input', JSON.stringify({ apex: `running-${tag}.com` }), '--wait'],
    {
      HOME: home,
      SVC_BASE_URL: stack.gatewayUrl,
      SVC_API_KEY: key.apiKey,
    },
  );
  try {
    const price = /^quoted (\S+) USD/.exec(await job.stderrLine(/^quoted \S+ USD/))?.[1] ?? '';
    const running = await job.stderrLine(/^run \S+(?: started)?: running/);
    const runId = /^run (\S+?):? /.exec(running)?.[1] ?? '';
    job.interrupt();
    const pnpm = await job.exit;
    expect(pnpm.signal === 'SIGINT' || pnpm.code === 130).toBe(true);
    await job.gone(60_000);

    // The cancel reached the server while the run was running: requested, not forced.
    const record = await stack.fetch(`/api/capability-runs/${encodeURIComponent(runId)}`, {
      apiKey: key.apiKey,
    });
    expect(record.json).toMatchObject({ run_id: runId, cancel_requested_at: expect.any(String) });
    const { stderr } = job.output();
    expect(stderr).toMatch(/svc: interrupted \(SIG(INT|TERM)\); cancelling/);
    expect(stderr).toContain(`the cancel of run ${runId} was requested; it is still running`);
    // crt is free: what a completed run would cost is said all the same (a paid run: its price).
    const charge = Number(price) === 0 ? 'nothing (a free run)' : `its price, ${price} USD`;
    expect(stderr).toContain(`(cancellation is cooperative): if it completes first it is charged ${charge}`);

    // The handler stops at its next check: the run ends cancelled, not completed.
    await pollUntil(
      async () => {
        const now = await stack.fetch(`/api/capability-runs/${encodeURIComponent(runId)}`, {
          apiKey: key.apiKey,
        });
        return (now.json as { status?: string }).status === 'cancelled' || undefined;
      },
      { what: `run ${runId} to end cancelled`, timeoutMs: 30_000, intervalMs: 200 },
    );
  } finally {
    job.kill();
    fake.reset();
  }
});
