import { randomUUID } from 'node:crypto';
import { type FetchResult, type StackApi, sleep, type TestApiKey } from '@svc/testkit';
import { z } from 'zod';
import { LOAD_SLUG } from './platform';

/**
 * A steady load of paid runs from a few clients that behave as the API asks (issue 15): quote, then
 * run with an Idempotency-Key; on a 503 or a timeout retry the same step (the run with the same key
 * and quote), waiting what Retry-After says (capped, so the suite stays short). Every answer is kept,
 * so a test can check that none was a 500 and that every 503 carried Retry-After.
 */

/** One HTTP answer (or failure to get one) the load saw. */
export interface LoadAnswer {
  /** Which fault window it fell in (the label of the load that sent it). */
  window: string;
  step: 'quote' | 'run';
  /** HTTP status; 0 = no answer (timeout, connection error). */
  status: number;
  retryAfter: string | null;
  /** The error text of a non-2xx answer, or the client-side failure. */
  error: string | undefined;
}

/** One run the load asked for: its key, and its id once an answer gave it. */
export interface LoadRun {
  clientId: string;
  idempotencyKey: string;
  priceUsd: string;
  /** From a 2xx answer; undefined when the client gave up first (the audit looks it up by key). */
  runId: string | undefined;
}

const QuoteAnswer = z.object({ quote: z.object({ quote_id: z.string(), price_usd: z.string() }) });
const RunAnswer = z.object({ run_id: z.string() });
const ErrorAnswer = z.object({ error: z.string() });

// ms: a client's longest wait between two retries, whatever Retry-After says (keeps the suite short).
const MAX_RETRY_WAIT_MS = 1_000;
// ms: a client's wait after a failure without Retry-After (timeout, connection error).
const DEFAULT_RETRY_WAIT_MS = 500;
// ms: a client's own bound on one request, below testkit's 15 s (the gateway's RPC deadline is 3 s).
const REQUEST_TIMEOUT_MS = 10_000;
// ms: how long one step is retried before the client gives up on it (the audit still finds the run).
const GIVE_UP_MS = 90_000;
// ms between two runs of one client: ~3 clients x ~2 runs/s on a loaded 2-core machine.
const PAUSE_MS = 150;

function retryWaitMs(answer: LoadAnswer): number {
  const seconds = Number(answer.retryAfter);
  if (answer.retryAfter === null || !Number.isFinite(seconds)) return DEFAULT_RETRY_WAIT_MS;
  return Math.min(seconds * 1_000, MAX_RETRY_WAIT_MS);
}

function isRetryable(status: number): boolean {
  return status === 503 || status === 0;
}

export class PaidRunLoad {
  readonly answers: LoadAnswer[] = [];
  readonly runs: LoadRun[] = [];
  private stopping = false;
  private loops: Promise<void>[] = [];
  private sequence = 0;

  constructor(
    private readonly stack: StackApi,
    private readonly clients: readonly TestApiKey[],
    readonly window: string,
  ) {}

  start(): void {
    this.loops = this.clients.map((client) => this.loop(client));
  }

  /** Stops asking for new runs and waits until every client finished (or gave up on) its current one. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.loops);
  }

  private async loop(client: TestApiKey): Promise<void> {
    while (!this.stopping) {
      await this.oneRun(client);
      await sleep(PAUSE_MS);
    }
  }

  private async send(
    step: LoadAnswer['step'],
    call: () => Promise<FetchResult>,
  ): Promise<FetchResult | LoadAnswer> {
    let result: FetchResult;
    try {
      result = await call();
    } catch (err) {
      const answer: LoadAnswer = {
        window: this.window,
        step,
        status: 0,
        retryAfter: null,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      };
      this.answers.push(answer);
      return answer;
    }
    const error = ErrorAnswer.safeParse(result.json);
    this.answers.push({
      window: this.window,
      step,
      status: result.status,
      retryAfter: result.headers.get('retry-after'),
      error: error.success ? error.data.error : undefined,
    });
    return result;
  }

  /** Sends `call` until it is answered with something other than 503 / no answer, or GIVE_UP_MS passes. */
  private async untilAnswered(
    step: LoadAnswer['step'],
    call: () => Promise<FetchResult>,
  ): Promise<FetchResult | undefined> {
    const deadline = Date.now() + GIVE_UP_MS;
    for (;;) {
      const outcome = await this.send(step, call);
      if ('text' in outcome && !isRetryable(outcome.status)) return outcome;
      if (Date.now() >= deadline) return undefined;
      const last = this.answers[this.answers.length - 1];
      await sleep(last === undefined ? DEFAULT_RETRY_WAIT_MS : retryWaitMs(last));
    }
  }

  private async oneRun(client: TestApiKey): Promise<void> {
    this.sequence += 1;
    const key = `fault-${this.window}-${this.sequence}-${randomUUID()}`;
    // A unique text per run (so no two runs share an input), one priced unit (USD 0.002).
    const input = { text: `Run ${key}: mail jane.doe@example.com or call +44 20 7946 0958.` };
    const quoted = await this.untilAnswered('quote', () =>
      this.stack.fetch(`/api/capabilities/${LOAD_SLUG}/quote`, {
        method: 'POST',
        apiKey: client.apiKey,
        json: { input },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      }),
    );
    const quote = QuoteAnswer.safeParse(quoted?.json);
    if (quoted?.status !== 200 || !quote.success) return; // no quote, no run: nothing to audit
    const run: LoadRun = {
      clientId: client.clientId,
      idempotencyKey: key,
      priceUsd: quote.data.quote.price_usd,
      runId: undefined,
    };
    this.runs.push(run);
    const started = await this.untilAnswered('run', () =>
      this.stack.fetch(`/api/capabilities/${LOAD_SLUG}/run`, {
        method: 'POST',
        apiKey: client.apiKey,
        headers: { 'idempotency-key': key },
        json: { input, quote_id: quote.data.quote.quote_id },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      }),
    );
    const answer = RunAnswer.safeParse(started?.json);
    if (started !== undefined && started.status >= 200 && started.status < 300 && answer.success) {
      run.runId = answer.data.run_id;
    }
  }
}

/** Answers no client may ever get: a 5xx other than 503, or a 503 without Retry-After. */
export function forbiddenAnswers(answers: readonly LoadAnswer[]): LoadAnswer[] {
  return answers.filter(
    (answer) => answer.status >= 500 && (answer.status !== 503 || answer.retryAfter === null),
  );
}

/** Answers that are neither 2xx, 503 nor a client-side timeout: refusals the load did not expect. */
export function unexpectedAnswers(answers: readonly LoadAnswer[]): LoadAnswer[] {
  return answers.filter(
    (answer) => !(answer.status >= 200 && answer.status < 300) && !isRetryable(answer.status),
  );
}

/** Counts of answers by step and status, for the log: `run 202 x40, run 503 x3, quote 200 x43`. */
export function answerSummary(answers: readonly LoadAnswer[]): string {
  const counts = new Map<string, number>();
  for (const answer of answers) {
    const label = `${answer.step} ${answer.status}`;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts].map(([label, count]) => `${label} x${count}`).join(', ');
}

/** The distinct texts of the 503s, by step (what a client was told to retry). */
export function serviceUnavailableTexts(answers: readonly LoadAnswer[]): string[] {
  const texts = new Set(
    answers
      .filter((answer) => answer.status === 503)
      .map((answer) => `${answer.step}: ${answer.error ?? '(no error text)'}`),
  );
  return [...texts];
}

/**
 * 503s that blame another service than `down` (issue 15 finding 3: with the wallet down, the
 * message named the orchestrator). A 503 naming no service (e.g. PostgreSQL) is not counted.
 */
export function misattributed503s(answers: readonly LoadAnswer[], down: string): LoadAnswer[] {
  return answers.filter((answer) => {
    if (answer.status !== 503) return false;
    const named = /\b([a-z]+) service\b/.exec(answer.error ?? '')?.[1];
    return named !== undefined && named !== down;
  });
}
