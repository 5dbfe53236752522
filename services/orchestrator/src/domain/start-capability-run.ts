import { randomUUID } from 'node:crypto';
import {
  type ComputedPrice,
  microsFromUsd,
  type Quote,
  type ResolvedFile,
  usdFromMicros,
} from '@svc/contracts';
import { ValidationError } from '@svc/errors';
import type { CapabilityDirectory } from './capability-directory';
import { assertHandled, assertRunnable, noHandler, priceOf, resolveCapability } from './capability-gate';
import { type ResolveFiles, resolveInputFiles } from './input-files';
import { storableJsonArray, storableJsonObject } from './json';
import { planBuilderOf } from './plan-builders';
import { resultProblem } from './reports';
import { inputHash, runRequestHash } from './request-hash';
import { type StartRunDeps, type StartRunResult, startRun } from './start-run';

export interface StartCapabilityRunDeps extends StartRunDeps {
  directory: CapabilityDirectory;
  /** The upload service's `resolveFiles` (only called for an input that names files). */
  resolveFiles: ResolveFiles;
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
 * paid price, Idempotency-Key and quote_id required (422) → one transaction: the run row (with its
 * files), then the wallet (`holdForRun` with a quote_id: the quote's price is the promise and is what
 * the run keeps; else a zero-price quote with the run id), then, for files, the upload service marks
 * them used by the run. plan_only runs are inserted `completed` with their plan; others are queued.
 *
 * The quote's input hash covers the upload ids, and an upload's bytes never change once complete
 * (single-use token), so holding a quote for this input is holding it for these very files.
 * The files are resolved twice: first only checked (a run refused by the 422s here or by the wallet
 * must not mark them: a used upload is kept, so a refused run would keep it forever), then marked
 * inside the transaction once the wallet accepted; a failure there rolls the run back (a hold the
 * wallet committed is reused by a retry with the same quote, or released by the orphan-hold sweep).
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
  const hash = inputHash(input);
  const filesQuery = {
    clientId: command.clientId,
    slug,
    requirements: record.file_requirements,
    definition,
    input,
  };
  // What `prepare` found for the run being recorded (its price for a free run's zero-price quote,
  // whether it has files to mark); `quote` reads it in the same round, after `prepare`.
  let prepared: { price: ComputedPrice; files: ResolvedFile[] } | undefined;

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
      prepared = { price, files };
      return {
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
        files: files.length > 0 ? storableJsonArray(files, `${slug} files`) : undefined,
      };
    },
    quote: async (run) => {
      if (prepared === undefined) throw new Error('startRun called quote before prepare');
      const { price, files } = prepared;
      let accepted: { quote: Quote; priceMicros: bigint };
      if (quoteId !== undefined) {
        const held = await deps.holdForRun({
          client_id: command.clientId,
          run_id: run.id,
          quote_id: quoteId,
          slug,
          input_hash: hash,
        });
        accepted = { quote: held.quote, priceMicros: microsFromUsd(held.quote.price_usd) };
      } else {
        // Free and not quoted first: a zero-price quote whose id is the run id (as for crt, C5).
        const quote = await deps.issueQuote({
          quote_id: run.id,
          client_id: command.clientId,
          slug,
          price_usd: '0',
          input_hash: hash,
          price_detail: price.detail,
          // The run's own quote: kept with the run, never swept as unused (wallet quote clean-up).
          for_run: true,
        });
        accepted = { quote, priceMicros: 0n };
      }
      // The wallet accepted: now the uploads are this run's (kept while it is). The answer is not
      // stored again: the bytes behind an upload id never change once complete.
      if (files.length > 0) await resolveInputFiles(deps.resolveFiles, { ...filesQuery, runId: run.id });
      return accepted;
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
