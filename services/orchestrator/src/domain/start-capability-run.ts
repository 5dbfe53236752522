import { randomUUID } from 'node:crypto';
import { usdFromMicros } from '@svc/contracts';
import { ValidationError } from '@svc/errors';
import type { CapabilityDirectory } from './capability-directory';
import { assertHandled, assertRunnable, noHandler, priceOf, resolveCapability } from './capability-gate';
import { resolveInputFiles } from './input-files';
import { storableJsonArray, storableJsonObject } from './json';
import { planBuilderOf } from './plan-builders';
import { resultProblem } from './reports';
import { runRequestHash } from './request-hash';
import { type StartRunDeps, type StartRunResult, startRun } from './start-run';

/** resolveFiles (StartRunDeps) checks an input's files here, and marks them used once held. */
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
 * (key reused) → 409 quote already used → execution mode (409) → the input's files, if it names any
 * (as for a quote: count 422, the upload service's 404/409/422, content types 422) → price → for a
 * paid price, Idempotency-Key and quote_id required (422) → startRun records it: a run with a
 * quote_id is inserted with its hold pending, then the wallet holds the quote (its price is the
 * promise and is what the run keeps) and, for files, the upload service marks them used by the run;
 * a free run without one gets its own zero-price quote. plan_only runs end `completed` with their
 * plan; others are queued.
 *
 * The quote's input hash covers the upload ids, and an upload's bytes never change once complete
 * (single-use token), so holding a quote for this input is holding it for these very files.
 * The files are resolved twice: first only checked here (a run refused by the 422s here or by the
 * wallet must not mark them: a used upload is kept, so a refused run would keep it forever), then
 * marked once the wallet accepted (pending-hold.ts); a refusal there undoes the pending run (a hold
 * the wallet committed is reused by a retry with the same quote, or released by the orphan-hold sweep).
 */
export async function startCapabilityRun(
  deps: StartCapabilityRunDeps,
  command: StartRunCommand,
): Promise<StartRunResult> {
  const { slug, quoteId } = command;
  const { record, definition, status, input } = await resolveCapability(
    (s) => deps.directory.describe(s),
    slug,
    command.input,
  );
  const requestHash = runRequestHash({ slug, input, quoteId, clientType: command.clientType });
  const storedInput = storableJsonObject(input, `${slug} input`);
  const filesQuery = {
    clientId: command.clientId,
    slug,
    requirements: record.file_requirements,
    definition,
    input,
  };
  return startRun(deps, {
    clientId: command.clientId,
    idempotencyKey: command.idempotencyKey,
    quoteId,
    requestHash,
    quoteTakenMessage: `quote_id ${quoteId} has already been used for a run; quote again`,
    newRunId: randomUUID,
    prepare: async (runId) => {
      assertHandled(slug, assertRunnable(slug, record));
      const files = await resolveInputFiles(deps.resolveFiles, filesQuery);
      const price = priceOf(record, definition, input, files);
      if (price.micros > 0n) assertPaidRequest(slug, usdFromMicros(price.micros), command);
      return {
        id: runId,
        clientId: command.clientId,
        slug,
        clientType: command.clientType,
        input: storedInput,
        requestHash,
        idempotencyKey: command.idempotencyKey ?? null,
        priceMicros: price.micros,
        priceDetail: price.detail,
        runtime: record.execution.runtime,
        executionStatus: status,
        result: status === 'plan_only' ? plan(slug, runId, input) : undefined,
        files: files.length > 0 ? storableJsonArray(files, `${slug} files`) : undefined,
      };
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
