import { randomUUID } from 'node:crypto';
import type { CrtInput, Quote } from '@svc/contracts';
import { ConflictError } from '@svc/errors';
import { storableJsonObject } from './json';
import { crtRequestHash, inputHash } from './request-hash';
import { type StartRunDeps, type StartRunResult, startRun } from './start-run';

/** A parsed `orchestrator.startCrtRun` request. */
export interface StartCrtRunCommand {
  clientId: string;
  input: CrtInput;
  quoteId?: string | undefined;
  clientType: string;
  idempotencyKey?: string | undefined;
}

/** crt is free (spec §1.7): the price the wallet is asked to quote. */
const CRT_PRICE_USD = '0';

/**
 * Records a crt run and queues it, or finds the run the request already stands for
 * (docs/decisions.md C3, C5, C12). crt needs no registry lookup: it is free, `supported` and runs
 * on `node` workers by definition. The wallet issues its zero-price quote with the run id; a
 * quote_id the client quoted first is returned as stored, and refused when it has expired.
 */
export function startCrtRun(deps: StartRunDeps, command: StartCrtRunCommand): Promise<StartRunResult> {
  const quoteId = command.quoteId;
  const requestHash = crtRequestHash(command);
  return startRun(deps, {
    clientId: command.clientId,
    idempotencyKey: command.idempotencyKey,
    quoteId,
    requestHash,
    quoteTakenMessage: `quote_id ${quoteId} has already been used for a run; quote again or omit quote_id`,
    newRunId: randomUUID,
    // No checks of its own: crt is free, supported and has a queue by definition.
    prepare: async (runId) => ({
      id: runId,
      clientId: command.clientId,
      slug: 'crt',
      clientType: command.clientType,
      input: storableJsonObject(command.input, 'crt input'),
      requestHash,
      idempotencyKey: command.idempotencyKey ?? null,
      priceMicros: 0n,
      runtime: 'node',
      executionStatus: 'supported',
    }),
    quote: async (draft) => {
      const quote = await deps.issueQuote({
        quote_id: draft.id,
        client_id: command.clientId,
        slug: 'crt',
        price_usd: CRT_PRICE_USD,
        input_hash: inputHash(command.input),
      });
      assertUsable(quote, (deps.now ?? (() => new Date()))());
      return { quote, priceMicros: 0n };
    },
  });
}

/**
 * A quote the wallet already held (the client quoted first) may have expired: "after expires_at the
 * quote can no longer be used to start a run" (contracts Quote, C12). A fresh one never has.
 */
function assertUsable(quote: Quote, now: Date): void {
  if (Date.parse(quote.expires_at) <= now.getTime()) {
    throw new ConflictError(
      `quote_id ${quote.quote_id} expired at ${quote.expires_at}; quote again or omit quote_id`,
    );
  }
}
