import { randomUUID } from 'node:crypto';
import type { CrtInput, Quote } from '@svc/contracts';
import { isAppError } from '@svc/errors';
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

/**
 * Records a crt run and queues it, or finds the run the request already stands for (docs/decisions.md
 * C3, C5, C16). crt needs no registry lookup: it is free, `supported` and runs on `node` workers by
 * definition. Without a quote_id the run gets its own zero-price quote (no wallet call: one INSERT
 * and one queue add) under a fresh run id.
 *
 * A quote_id names the run for this client (spec §2.3 "a valid UUID supplied as quote_id becomes the
 * run ID"; decisions C16): run ids are unique per client, and the run gets a fresh internal id, so a
 * UUID another client used is simply a new run here and no answer tells one client about another's
 * ids. When the UUID is one of the client's own crt quotes, the wallet checks it (this input, not
 * expired) and the run carries that quote; any other UUID gets a zero-price quote of its own under
 * that id. The client's own id used before answers 409 (C5).
 */
export function startCrtRun(deps: StartRunDeps, command: StartCrtRunCommand): Promise<StartRunResult> {
  const chosenRunId = command.quoteId;
  const requestHash = crtRequestHash(command);
  const input = storableJsonObject(command.input, 'crt input');
  return startRun(deps, {
    clientId: command.clientId,
    idempotencyKey: command.idempotencyKey,
    chosenRunId,
    requestHash,
    quoteTakenMessage: `quote_id ${chosenRunId} has already been used for a run; quote again or omit quote_id`,
    newRunId: randomUUID,
    // No checks of its own: crt is free, supported and has a queue by definition.
    prepare: async (runId) => ({
      id: runId,
      publicId: chosenRunId,
      clientId: command.clientId,
      slug: 'crt',
      clientType: command.clientType,
      input,
      requestHash,
      idempotencyKey: command.idempotencyKey ?? null,
      priceMicros: 0n,
      runtime: 'node',
      executionStatus: 'supported',
      quote: chosenRunId === undefined ? undefined : await ownCrtQuote(deps, command, runId, chosenRunId),
    }),
  });
}

/**
 * The client's own crt quote named `quoteId`, checked by the wallet as on every run (decisions Q7:
 * for crt and this input, not expired; 422 and 409 otherwise), or undefined when the wallet knows no
 * such quote of this client (its 404, which another client's quote answers too): then the UUID is
 * simply the run id the client chose. A crt quote is free, so the wallet holds nothing.
 */
async function ownCrtQuote(
  deps: StartRunDeps,
  command: StartCrtRunCommand,
  runId: string,
  quoteId: string,
): Promise<Quote | undefined> {
  try {
    const held = await deps.holdForRun({
      client_id: command.clientId,
      run_id: runId,
      quote_id: quoteId,
      slug: 'crt',
      input_hash: inputHash(storableJsonObject(command.input, 'crt input')),
    });
    return held.quote;
  } catch (err) {
    if (isAppError(err) && err.status === 404) return undefined;
    throw err;
  }
}
