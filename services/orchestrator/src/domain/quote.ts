import { randomUUID } from 'node:crypto';
import {
  type PriceDetail,
  priceUsd,
  type Quote,
  type QuoteExecution,
  type RpcRequestInput,
  usdFromMicros,
} from '@svc/contracts';
import type { CapabilityDirectory } from './capability-directory';
import {
  assertHandled,
  assertRunnable,
  priceOf,
  type RunnableStatus,
  resolveCapability,
} from './capability-gate';
import type { WorkerAvailability } from './get-run';
import { type ResolveFiles, resolveInputFiles } from './input-files';
import { inputHash } from './request-hash';

/** What the wallet is asked for (rpc `wallet.issueQuote`, bus RPC catalog). */
export type QuoteRequest = RpcRequestInput<'wallet', 'issueQuote'>;

/** The wallet's clearance reason of a zero price (wallet clearance.ts FREE_CLEARANCE: no funds read). */
export const FREE_CLEARANCE_REASON = 'free capability: no funds needed';

/**
 * ms: how long a run's own quote is shown valid, the wallet's default quote lifetime (QUOTE_TTL_MS).
 * It is used by its run from the start, so the figure only fills the Quote's `expires_at`.
 */
export const RUN_QUOTE_TTL_MS = 15 * 60_000;

export interface QuoteDeps {
  directory: CapabilityDirectory;
  /** The wallet's `issueQuote`: stores the quote with its clearance (503 when the wallet is down). */
  issueQuote(request: QuoteRequest): Promise<Quote>;
  /** The upload service's `resolveFiles` (only called for an input that names files). */
  resolveFiles: ResolveFiles;
  workerUp: WorkerAvailability;
  /** New quote ids; default randomUUID. */
  newQuoteId?: () => string;
}

/** A parsed `orchestrator.quote` request (spec §4.3). */
export interface QuoteCommand {
  clientId: string;
  slug: string;
  /** The raw input object; parsed here with the capability's schema. */
  input: Record<string, unknown>;
  clientType: string;
}

/**
 * `orchestrator.quote` (docs/decisions.md Q2): describe (404) → execution mode (409 describe_only,
 * missing, unknown; 409 no handler) → input (422) → its files, if it names any (count 422; the upload
 * service's 404/409/422; content types 422) → price (per page, image or megabyte from the files) →
 * the wallet issues the quote with its clearance (bound to the client, the slug and the hash of the
 * PARSED input) → plus `execution`: whether a worker of the capability's runtime is up right now.
 *
 * A quote for files is bound by the same input hash: it covers the upload ids, and the bytes behind
 * an id never change once complete (its token was single-use, the PUT wrote them once), so the pages
 * or size priced now are the ones the run will process.
 */
export async function quoteCapability(deps: QuoteDeps, command: QuoteCommand): Promise<Quote> {
  const record = await deps.directory.describe(command.slug);
  const status = assertRunnable(command.slug, record);
  assertHandled(command.slug, status);
  const { definition, input } = await resolveCapability(async () => record, command.slug, command.input);
  const files = await resolveInputFiles(deps.resolveFiles, {
    clientId: command.clientId,
    slug: command.slug,
    requirements: record.file_requirements,
    definition,
    input,
  });
  const price = priceOf(record, definition, input, files);
  const quote = await deps.issueQuote({
    quote_id: (deps.newQuoteId ?? randomUUID)(),
    client_id: command.clientId,
    slug: command.slug,
    price_usd: priceUsd(price),
    input_hash: inputHash(input),
    price_detail: price.detail,
  });
  const runtime = record.execution.runtime;
  const workerAvailable = await deps.workerUp({ slug: command.slug, runtime });
  const execution: QuoteExecution = {
    effective_status: status,
    runtime,
    worker_available: workerAvailable,
    message: executionMessage(status, runtime, workerAvailable),
  };
  return { ...quote, execution };
}

/** `execution.message` of a quote: what running this quote will do now (spec §2.1 modes). */
export function executionMessage(status: RunnableStatus, runtime: string, workerAvailable: boolean): string {
  switch (status) {
    case 'plan_only':
      return 'plan_only: the run returns a plan at once; the server runs nothing';
    case 'requires_worker':
      return workerAvailable
        ? `requires_worker: a worker with runtime ${runtime} is up; a run starts when one takes it`
        : `requires_worker: no worker with runtime ${runtime} is up yet; a run is accepted and waits queued until one is`;
    case 'supported':
      return workerAvailable
        ? `supported: runs on a worker with runtime ${runtime}`
        : `supported: no worker with runtime ${runtime} is up right now; a run waits queued until one is`;
  }
}

/**
 * The zero-price quote of a free run started without a quote_id (issue 15): built here, stored with
 * the run only. The wallet used to store it too (`issueQuote`, one RPC and one row per free run), but
 * nothing reads those rows: the receipt and replays show the run's stored quote, the ledger has no
 * line for a free run, and a quote_id equal to a run id is answered from the runs table (409/404)
 * before the wallet is asked. Same shape and words as the wallet's free quote.
 */
export function freeRunQuote(runId: string, slug: string, now: Date, priceDetail?: PriceDetail): Quote {
  return {
    quote_id: runId,
    slug,
    price_usd: usdFromMicros(0n),
    currency: 'USD',
    wallet_clearance: { cleared: true, reason: FREE_CLEARANCE_REASON },
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + RUN_QUOTE_TTL_MS).toISOString(),
    ...(priceDetail === undefined ? {} : { price_detail: priceDetail }),
  };
}
