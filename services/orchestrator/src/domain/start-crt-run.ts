import { randomUUID } from 'node:crypto';
import type { CrtInput } from '@svc/contracts';
import { storableJsonObject } from './json';
import { crtRequestHash } from './request-hash';
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
 * Records a crt run and queues it, or finds the run the request already stands for
 * (docs/decisions.md C3, C5, C12). crt needs no registry lookup: it is free, `supported` and runs
 * on `node` workers by definition. Without a quote_id the run gets its own zero-price quote (no
 * wallet call: one INSERT and one queue add, issue 15) under a fresh run id. A quote_id is checked
 * by the wallet as on every other run (`holdForRun`, decisions Q7; issue 13): it must be one of the client's quotes for crt and this input, not expired, and it
 * becomes the run id; an unknown one and another client's both answer 404 `unknown quote_id: …`.
 * (Before issue 13 any UUID became the run id, so another client's id answered 409 where an unknown
 * one started a run: the difference told one client about another's quotes.)
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
  });
}
