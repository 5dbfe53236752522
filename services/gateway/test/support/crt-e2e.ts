import { ErrorResponse, RunStatusResponse } from '@svc/contracts';
import { createPrismaClient, type PrismaClient } from '@svc/db';
import {
  type FakeCtProviders,
  type FakeCtProvidersOptions,
  type FetchResult,
  pollUntil,
  type StackApi,
  startFakeCtProviders,
  startTestStack,
  type TestStack,
} from '@svc/testkit';

/**
 * Shared set-up of the crt end-to-end suites (services/gateway/test/crt-*.int.test.ts): the whole
 * platform as child processes (registry, wallet, orchestrator, worker, gateway) on a private
 * database and bus prefix, with the worker's provider URLs pointed at fake crt.sh / Cert Spotter
 * servers on loopback, and a Prisma client on the stack's database to check what was stored.
 */

export const CRT_RUN_PATH = '/api/capabilities/crt/run';
export const RUN_STATUS_PATH = '/api/capability-runs';

export interface CrtStack {
  stack: TestStack;
  fake: FakeCtProviders;
  prisma: PrismaClient;
  close(): Promise<void>;
}

/**
 * Starts the fake providers, then the stack with their URLs and `env` on top. The gateway's wait
 * (CRT_RUN_WAIT_MS) defaults to 10 s here: below testkit's 15 s per-request timeout, so a run that
 * never finishes shows as a 202 rather than an aborted request.
 */
export async function startCrtStack(
  env: Record<string, string>,
  fakeOptions: FakeCtProvidersOptions = {},
): Promise<CrtStack> {
  const fake = await startFakeCtProviders(fakeOptions);
  let stack: TestStack;
  try {
    stack = await startTestStack({
      services: ['registry', 'wallet', 'orchestrator', 'uploads', 'worker', 'gateway'],
      env: {
        CRT_SH_URL: fake.crtShUrl,
        CERTSPOTTER_URL: fake.certSpotterUrl,
        CRT_RUN_WAIT_MS: '10000',
        ...env,
      },
      // ms: six tsx processes compiling at once on a busy 2-core machine can take over a minute.
      startTimeoutMs: 120_000,
    });
  } catch (err) {
    await fake.close();
    throw err;
  }
  const prisma = createPrismaClient(stack.databaseUrl);
  return {
    stack,
    fake,
    prisma,
    close: async () => {
      await prisma.$disconnect();
      await stack.close();
      await fake.close();
    },
  };
}

export interface PostCrtRunOptions {
  apiKey?: string;
  idempotencyKey?: string;
}

/** `POST /api/capabilities/crt/run` with `body` as JSON. */
export function postCrtRun(
  stack: StackApi,
  body: unknown,
  options: PostCrtRunOptions = {},
): Promise<FetchResult> {
  const headers: Record<string, string> = {};
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
  return stack.fetch(CRT_RUN_PATH, {
    method: 'POST',
    json: body,
    headers,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
  });
}

export function getRun(stack: StackApi, apiKey: string, runId: string): Promise<FetchResult> {
  return stack.fetch(`${RUN_STATUS_PATH}/${runId}`, { apiKey });
}

/** The ErrorResponse of an answer, after checking it has exactly the spec's two keys. */
export function errorBody(result: FetchResult): string {
  expect(Object.keys(result.json ?? {}).sort()).toEqual(['error', 'ok']);
  return ErrorResponse.parse(result.json).error;
}

/** Sorted keys of a JSON object answer. */
export function keysOf(value: unknown): string[] {
  return typeof value === 'object' && value !== null ? Object.keys(value).sort() : [];
}

/** Observations with first_seen as epoch ms, so `…00Z` and `…00.000Z` compare equal. */
export function asInstants(
  observations: ReadonlyArray<{ hostname: string; first_seen?: string | undefined }>,
): Array<{ hostname: string; first_seen?: number }> {
  return observations.map(({ hostname, first_seen }) =>
    first_seen === undefined ? { hostname } : { hostname, first_seen: Date.parse(first_seen) },
  );
}

/** The run id quoted in a failed run's error message (`run <id> failed: …`). */
export function runIdInMessage(message: string): string {
  const match = /^run ([0-9a-f-]{36}) failed: /.exec(message);
  if (match?.[1] === undefined) throw new Error(`no run id in "${message}"`);
  return match[1];
}

/**
 * Polls `GET /api/capability-runs/{id}` until the run reaches `status`; after `deadlineMs` fails
 * with the last record: for runs that finish after the POST answered 202.
 */
export function pollRun(
  stack: StackApi,
  apiKey: string,
  runId: string,
  status: string,
  deadlineMs = 30_000,
): Promise<RunStatusResponse> {
  let last: RunStatusResponse | undefined;
  return pollUntil(
    async () => {
      const result = await getRun(stack, apiKey, runId);
      expect(result.status).toBe(200);
      last = RunStatusResponse.parse(result.json);
      return last.status === status ? last : undefined;
    },
    {
      what: `run ${runId} to be ${status}`,
      timeoutMs: deadlineMs,
      intervalMs: 200,
      detail: () => `last record: ${JSON.stringify(last)}`,
    },
  );
}
