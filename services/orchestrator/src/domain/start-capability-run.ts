import { randomUUID } from 'node:crypto';
import { microsFromUsd, usdFromMicros } from '@svc/contracts';
import { ValidationError } from '@svc/errors';
import type { CapabilityDirectory } from './capability-directory';
import { assertHandled, assertRunnable, noHandler, resolveCapability } from './capability-gate';
import { storableJsonObject } from './json';
import { planBuilderOf } from './plan-builders';
import { resultProblem } from './reports';
import { inputHash, runRequestHash } from './request-hash';
import { type RunDraft, type StartRunDeps, type StartRunResult, startRun } from './start-run';

export interface StartCapabilityRunDeps extends StartRunDeps {
  directory: CapabilityDirectory;
}

/** A parsed `orchestrator.startRun` request (spec §4.4). */
export interface StartRunCommand {
  clientId: string;
  slug: string;
  /** The raw input object; parsed here with the capability's schema. */
  input: Record<string, unknown>;
  quoteId?: string | undefined;
  clientType: string;
  idempotencyKey?: string | undefined;
}

/**
 * `orchestrator.startRun` (docs/decisions.md Q3-Q7): describe (404) → input (422) → replay or 422
 * (key reused) → 409 quote already used → execution mode (409) → for a paid price, Idempotency-Key
 * and quote_id required (422) → one transaction: the run row, then the wallet (`holdForRun` with a
 * quote_id: the quote's price is the promise and is what the run keeps; else a zero-price quote with
 * the run id). plan_only runs are inserted `completed` with their plan; others are queued.
 */
export async function startCapabilityRun(
  deps: StartCapabilityRunDeps,
  command: StartRunCommand,
): Promise<StartRunResult> {
  const { slug, quoteId } = command;
  const { record, status, input, price } = await resolveCapability(
    (s) => deps.directory.describe(s),
    slug,
    command.input,
  );
  const requestHash = runRequestHash({ slug, input, quoteId, clientType: command.clientType });
  const storedInput = storableJsonObject(input, `${slug} input`);
  const hash = inputHash(input);

  const draft = (runId: string): RunDraft => ({
    id: runId,
    clientId: command.clientId,
    slug,
    clientType: command.clientType,
    input: storedInput,
    requestHash,
    idempotencyKey: command.idempotencyKey ?? null,
    priceMicros: price.micros,
    runtime: record.execution.runtime,
    executionStatus: status,
    result: status === 'plan_only' ? plan(slug, runId, input) : undefined,
  });

  return startRun(deps, {
    clientId: command.clientId,
    idempotencyKey: command.idempotencyKey,
    quoteId,
    requestHash,
    quoteTakenMessage: `quote_id ${quoteId} has already been used for a run; quote again`,
    newRunId: randomUUID,
    check: () => {
      assertHandled(slug, assertRunnable(slug, record));
      if (price.micros > 0n) assertPaidRequest(slug, usdFromMicros(price.micros), command);
    },
    draft,
    quote: async (run) => {
      if (quoteId !== undefined) {
        const held = await deps.holdForRun({
          client_id: command.clientId,
          run_id: run.id,
          quote_id: quoteId,
          slug,
          input_hash: hash,
        });
        return { quote: held.quote, priceMicros: microsFromUsd(held.quote.price_usd) };
      }
      // Free and not quoted first: a zero-price quote whose id is the run id (as for crt, C5).
      const quote = await deps.issueQuote({
        quote_id: run.id,
        client_id: command.clientId,
        slug,
        price_usd: '0',
        input_hash: hash,
        price_detail: price.detail,
      });
      return { quote, priceMicros: 0n };
    },
  });
}

/** Paid runs need a key and a quote (docs/decisions.md Q4): money never moves twice for one intent. */
function assertPaidRequest(
  slug: string,
  price: string,
  command: Pick<StartRunCommand, 'idempotencyKey' | 'quoteId'>,
): void {
  if (command.idempotencyKey === undefined) {
    throw new ValidationError(
      `Idempotency-Key header is required for paid capabilities (price ${price} USD)`,
    );
  }
  if (command.quoteId === undefined) {
    throw new ValidationError(
      `quote_id is required for paid capabilities: quote this input first (POST /api/capabilities/${slug}/quote)`,
    );
  }
}

/** The plan of a plan_only run, checked against the capability's result schema before it is stored. */
function plan(slug: string, runId: string, input: Record<string, unknown>) {
  const build = planBuilderOf(slug);
  if (build === undefined) throw noHandler(slug);
  const result = build(runId, input);
  const problem = resultProblem(slug, result);
  // A bug of ours, not the client's: a 500 whose details stay in the log (serveRpc logs the throw).
  if (problem !== undefined) throw new Error(`plan of ${slug} does not match its result schema: ${problem}`);
  return storableJsonObject(result, `${slug} plan`);
}
