import { apiOperation } from '@svc/contracts';
import { runCrt } from '../domain/crt-run';
import { crtRunAnswer } from '../domain/crt-run-answer';
import type { RunOrchestrator } from '../domain/run-orchestrator';
import type { RunWaiting } from '../domain/run-waiter';
import { route } from '../routing/route';

export interface CrtRunRouteOptions {
  /** ms the request waits for the run to finish before answering 202 (CRT_RUN_WAIT_MS, 55,000). */
  readonly waitMs: number;
}

/**
 * `POST /api/capabilities/crt/run` (spec §4.5; design "Flow" steps 1, 2 and 5). Its path is
 * matched in its own letter case only: `/CRT/run` goes on to the generic run (quote-run.ts, spec
 * §4.4), which answers as soon as the run is recorded instead of waiting for it.
 *
 * The key comes before the body (an unauthenticated request is not read), then the header and the
 * body are checked (422 naming the field), then runCrt (domain/crt-run.ts, shared with the MCP
 * tool): the orchestrator records and queues the run, and the request waits for the run to finish
 * (RunWaiter) up to `waitMs`; crtRunAnswer() picks the answer.
 */
export function crtRunRoutes(orchestrator: RunOrchestrator, waiter: RunWaiting, options: CrtRunRouteOptions) {
  return {
    runCrt: route(
      apiOperation('runCrt'),
      async ({ auth, headers, body }, context) => {
        const outcome = await runCrt(orchestrator, waiter, {
          clientId: auth.clientId,
          request: body,
          idempotencyKey: headers['idempotency-key'],
          waitMs: options.waitMs,
          // A client that goes away releases its waiter instead of holding it to the deadline.
          signal: context.clientGone(),
        });
        return crtRunAnswer(outcome);
      },
      { bodyNote: 'with "input" required' },
    ),
  };
}
