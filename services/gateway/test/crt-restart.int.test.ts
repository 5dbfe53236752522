// Cost: ~24 s on 2 cores (50-100 s busy): 6 services once (~10 s); all 5 restarted together (~5 s), then the worker.
import { randomUUID } from 'node:crypto';
import { CrtCompletedRunResponse, CrtReplayRunResponse, RunStatusResponse } from '@svc/contracts';
import type { ServiceName, TestApiKey } from '@svc/testkit';
import {
  type CrtStack,
  getRun,
  pollRun,
  postCrtRun,
  RUN_STATUS_PATH,
  startCrtStack,
} from './support/crt-e2e';

/**
 * Runs are durable (spec §1.7, §8: stored without expiry): a completed run and its idempotency key
 * outlive a restart of every service, and a run accepted while no worker is up is answered 202 and
 * completes once a worker is back.
 */

const SERVICES: readonly ServiceName[] = ['gateway', 'orchestrator', 'worker', 'wallet', 'registry'];

describe('crt runs across restarts', () => {
  let crt: CrtStack;
  let runner: TestApiKey;

  beforeAll(async () => {
    // ms: a short gateway wait, so the run queued without a worker is answered 202 quickly.
    crt = await startCrtStack({ CRT_CACHE_TTL_MS: '0', CRT_RUN_WAIT_MS: '3000' });
    runner = await crt.stack.createApiKey({ scopes: ['capabilities:run'] });
  }, 120_000);
  afterAll(() => crt?.close());

  it('keeps a completed run and its replay through a restart of every service', async () => {
    const key = `restart-${randomUUID()}`;
    const request = { input: { apex: 'example.com', limit: 4, include_first_seen: true } };
    const first = await postCrtRun(crt.stack, request, { apiKey: runner.apiKey, idempotencyKey: key });
    expect(first.status).toBe(200);
    const original = CrtCompletedRunResponse.parse(first.json);
    const before = RunStatusResponse.parse((await getRun(crt.stack, runner.apiKey, original.run_id)).json);

    // Down one after another, callers before what they call (each stop is quick: ~0.5 s for all
    // five; stopped together they took 4-5 s, waiting on each other), then all up again in
    // parallel, as the stack starts at first (a tsx start is seconds of CPU on 2 cores).
    for (const name of SERVICES) expect(await crt.stack.stop(name)).toBe(0);
    await Promise.all(SERVICES.map((name) => crt.stack.start(name)));

    const after = await getRun(crt.stack, runner.apiKey, original.run_id);
    expect(after.status).toBe(200);
    expect(RunStatusResponse.parse(after.json)).toEqual(before);

    const replay = await postCrtRun(crt.stack, request, { apiKey: runner.apiKey, idempotencyKey: key });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const body = CrtReplayRunResponse.parse(replay.json);
    expect(body.run_id).toBe(original.run_id);
    expect(body.quote).toEqual(original.quote);
    expect(body.run?.result).toEqual(original.result);
    expect(crt.fake.calls('crt.sh')).toBe(1);
  }, 120_000);

  it('answers 202 with a Location while no worker runs, and the run completes once one is back', async () => {
    await crt.stack.stop('worker');
    const result = await postCrtRun(
      crt.stack,
      { input: { apex: 'later-run.net' } },
      { apiKey: runner.apiKey },
    );
    expect(result.status).toBe(202);
    const queued = RunStatusResponse.parse(result.json);
    expect(queued.status).toBe('queued');
    expect(queued).not.toHaveProperty('result');
    expect(result.headers.get('location')).toBe(`${RUN_STATUS_PATH}/${queued.run_id}`);
    expect(crt.fake.calls('crt.sh', 'later-run.net')).toBe(0);

    await crt.stack.start('worker');
    const done = await pollRun(crt.stack, runner.apiKey, queued.run_id, 'completed');
    expect(done.status).toBe('completed');
    expect(done.result).toMatchObject({ apex: 'later-run.net', provider: 'crt.sh', status: 'completed' });
    expect(crt.fake.calls('crt.sh', 'later-run.net')).toBe(1);
  }, 60_000);
});
