import { setTimeout as sleep } from 'node:timers/promises';
import { createBus, publishEvent } from '@svc/bus';
import {
  platformCatalog,
  QuoteResponse,
  RunReceiptResponse,
  RunStartResponse,
  type RunState,
  RunStatusResponse,
} from '@svc/contracts';
import { createLogger } from '@svc/log';
import { type FetchResult, pollUntil, type StackApi } from '@svc/testkit';
import { type CrtStack, startCrtStack } from '../support/crt-e2e';

/**
 * Shared set-up of the quote-first end-to-end suites (services/gateway/test/quote-first/*): the crt
 * suites' stack (whole platform as child processes, fake CT providers on loopback, a Prisma client
 * on the stack's database) with the crt cache off and short BullMQ lock and stall settings, so a
 * killed worker's job is picked up again within seconds.
 */
export type QuoteFirstStack = CrtStack;

// ms between two reads of a run or receipt while waiting for it.
const POLL_INTERVAL_MS = 150;

export function startQuoteFirstStack(env: Record<string, string> = {}): Promise<QuoteFirstStack> {
  return startCrtStack({
    CRT_CACHE_TTL_MS: '0',
    WORKER_LOCK_DURATION_MS: '2000',
    WORKER_STALLED_INTERVAL_MS: '1000',
    ...env,
  });
}

export function postQuote(
  stack: StackApi,
  apiKey: string,
  slug: string,
  body: unknown,
): Promise<FetchResult> {
  return stack.fetch(`/api/capabilities/${slug}/quote`, { method: 'POST', apiKey, json: body });
}

export interface PostRunOptions {
  idempotencyKey?: string;
}

export function postRun(
  stack: StackApi,
  apiKey: string,
  slug: string,
  body: unknown,
  options: PostRunOptions = {},
): Promise<FetchResult> {
  const headers: Record<string, string> = {};
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
  return stack.fetch(`/api/capabilities/${slug}/run`, { method: 'POST', apiKey, json: body, headers });
}

/** Quotes `input` and expects 200; the parsed quote. */
export async function quoteOk(
  stack: StackApi,
  apiKey: string,
  slug: string,
  input: Record<string, unknown>,
): Promise<QuoteResponse['quote']> {
  const answer = await postQuote(stack, apiKey, slug, { input });
  if (answer.status !== 200) throw new Error(`quote ${slug}: ${answer.status} ${answer.text}`);
  return QuoteResponse.parse(answer.json).quote;
}

// Retries of a run start answered "may have been recorded: retry with the same Idempotency-Key".
const MAX_RECORDED_RETRIES = 2;
// ms before such a retry.
const RECORDED_RETRY_DELAY_MS = 500;

/** A 503 whose error asks for the same request again with the same Idempotency-Key. */
function mayHaveBeenRecorded(answer: FetchResult): boolean {
  return answer.status === 503 && /retry with the same Idempotency-Key/.test(answer.text);
}

/** Quotes and runs `input` with a fresh key; expects 200/202; the parsed start response. */
export async function quoteAndRun(
  stack: StackApi,
  apiKey: string,
  slug: string,
  input: Record<string, unknown>,
): Promise<RunStartResponse> {
  const quote = await quoteOk(stack, apiKey, slug, input);
  const body = { input, quote_id: quote.quote_id };
  const idempotencyKey = `key-${quote.quote_id}`;
  let answer = await postRun(stack, apiKey, slug, body, { idempotencyKey });
  // A 503 saying the run may have been recorded asks for the same request again with the same key
  // (a loaded machine can make the orchestrator answer the gateway late). Any other answer, and a
  // third such 503, fail the caller.
  for (let retry = 0; retry < MAX_RECORDED_RETRIES && mayHaveBeenRecorded(answer); retry += 1) {
    await sleep(RECORDED_RETRY_DELAY_MS);
    answer = await postRun(stack, apiKey, slug, body, { idempotencyKey });
  }
  if (answer.status !== 202 && answer.status !== 200) {
    throw new Error(`run ${slug}: ${answer.status} ${answer.text}`);
  }
  return RunStartResponse.parse(answer.json);
}

export async function getRun(stack: StackApi, apiKey: string, runId: string): Promise<RunStatusResponse> {
  const answer = await stack.fetch(`/api/capability-runs/${runId}`, { apiKey });
  if (answer.status !== 200) throw new Error(`run ${runId}: ${answer.status} ${answer.text}`);
  return RunStatusResponse.parse(answer.json);
}

/** Polls the run until `done(run)` holds; throws with the last record after `deadlineMs`. */
export function waitForRun(
  stack: StackApi,
  apiKey: string,
  runId: string,
  done: (run: RunStatusResponse) => boolean,
  deadlineMs = 30_000,
): Promise<RunStatusResponse> {
  let last: RunStatusResponse | undefined;
  return pollUntil(
    async () => {
      last = await getRun(stack, apiKey, runId);
      return done(last) ? last : undefined;
    },
    {
      what: `run ${runId}`,
      timeoutMs: deadlineMs,
      intervalMs: POLL_INTERVAL_MS,
      detail: () => `still ${last?.status}: ${last?.status_message}`,
    },
  );
}

/** Polls until the run has the given status. */
export function waitForStatus(
  stack: StackApi,
  apiKey: string,
  runId: string,
  status: RunState,
  deadlineMs?: number,
): Promise<RunStatusResponse> {
  return waitForRun(stack, apiKey, runId, (run) => run.status === status, deadlineMs);
}

export async function getReceipt(
  stack: StackApi,
  apiKey: string,
  runId: string,
): Promise<RunReceiptResponse> {
  const answer = await stack.fetch(`/api/capability-runs/${runId}/receipt`, { apiKey });
  if (answer.status !== 200) throw new Error(`receipt ${runId}: ${answer.status} ${answer.text}`);
  return RunReceiptResponse.parse(answer.json);
}

/** Polls the receipt until the run's money is settled (capture or release written by the wallet). */
export function waitForSettled(
  stack: StackApi,
  apiKey: string,
  runId: string,
  deadlineMs = 20_000,
): Promise<RunReceiptResponse> {
  let last: RunReceiptResponse | undefined;
  return pollUntil(
    async () => {
      last = await getReceipt(stack, apiKey, runId);
      return last.ledger.settled ? last : undefined;
    },
    {
      what: `run ${runId} to be settled`,
      timeoutMs: deadlineMs,
      intervalMs: POLL_INTERVAL_MS,
      detail: () => `ledger: ${JSON.stringify(last?.ledger)}`,
    },
  );
}

/** The ErrorResponse message, after checking the body has exactly the spec's two keys. */
export { errorBody as errorOf } from '../support/crt-e2e';

/**
 * Sets a capability's raw machine_run_status in the registry's table and announces it, as an
 * operator's change would be: gateway and orchestrator drop their cached descriptions.
 */
export async function setRunStatus(qf: QuoteFirstStack, slug: string, raw: string): Promise<void> {
  await qf.prisma.capability.update({ where: { slug }, data: { machineRunStatus: raw } });
  const bus = createBus({
    catalog: platformCatalog,
    redisUrl: qf.stack.redisUrl,
    prefix: qf.stack.prefix,
    logger: createLogger({ service: 'test', level: 'silent' }),
    encryptionKeys: qf.stack.busEncryptionKeys,
  });
  try {
    await publishEvent(bus, 'catalog.changed', { version: `test-${Date.now()}`, changed_slugs: [slug] });
  } finally {
    await bus.close();
  }
  // Pub/sub delivery is asynchronous: give both subscribers a moment.
  await new Promise((resolve) => setTimeout(resolve, 300));
}

/** A text of `length` characters with no personal data in it. */
export function plainText(length: number): string {
  const words = 'the quick brown fox jumps over the lazy dog ';
  return words.repeat(Math.ceil(length / words.length)).slice(0, length);
}
