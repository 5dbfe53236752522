import { CrtRunHeaders, CrtRunRequest } from '@svc/contracts';
import { Router } from 'express';
import { runCrt } from '../domain/crt-run';
import { crtRunAnswer } from '../domain/crt-run-answer';
import { sendAnswer } from '../domain/run-answers';
import type { RunOrchestrator } from '../domain/run-orchestrator';
import type { RunWaiting } from '../domain/run-waiter';
import { authOf } from '../locals';
import { defineRoute } from '../middleware/method-not-allowed';
import { noStore } from '../middleware/no-store';
import { objectBody, parseRequest } from '../middleware/validate';
import type { RouteKit } from '../route-kit';
import { clientGoneSignal } from './client-gone';

export interface CrtRunRouteOptions {
  /** ms the request waits for the run to finish before answering 202 (CRT_RUN_WAIT_MS, 55,000). */
  readonly waitMs: number;
}

/**
 * `POST /api/capabilities/crt/run` (spec §4.5; design "Flow" steps 1, 2 and 5). Mounted at
 * /api/capabilities, before the discovery router, with case-sensitive matching: `/CRT/run` is not
 * this route. Every other slug (and `/CRT/run`) goes on to the generic run route (quote-run.ts,
 * spec §4.4), which answers as soon as the run is recorded instead of waiting for it.
 *
 * Auth comes before the body (an unauthenticated request is not read), then the header and the body
 * are checked (422 naming the field), then runCrt (domain/crt-run.ts, shared with the MCP tool):
 * the orchestrator records and queues the run, and the request waits for the run to finish
 * (RunWaiter) up to `waitMs`; crtRunAnswer() picks the answer.
 */
export function crtRunRouter(
  kit: RouteKit,
  orchestrator: RunOrchestrator,
  waiter: RunWaiting,
  options: CrtRunRouteOptions,
): Router {
  const router = Router({ caseSensitive: true });

  defineRoute(router, '/crt/run', {
    post: [
      noStore,
      kit.requireAuth('capabilities:run'),
      ...kit.jsonBody,
      async (req, res) => {
        const headers = parseRequest(
          CrtRunHeaders,
          { 'idempotency-key': req.headers['idempotency-key'] },
          'headers',
        );
        const request = parseRequest(CrtRunRequest, objectBody(req, '(CrtRunRequest) with "input" required'));
        // A client that goes away releases its waiter instead of holding it to the deadline.
        const outcome = await runCrt(orchestrator, waiter, {
          clientId: authOf(res).clientId,
          request,
          idempotencyKey: headers['idempotency-key'],
          waitMs: options.waitMs,
          signal: clientGoneSignal(res),
        });
        const answer = crtRunAnswer(outcome);
        sendAnswer(res, answer);
      },
    ],
  });

  return router;
}
