import { CrtRunHeaders, CrtRunRequest } from '@svc/contracts';
import { Router } from 'express';
import type { RouteKit } from '../app';
import { crtRunAnswer } from '../domain/crt-run-answer';
import { sendAnswer } from '../domain/run-answers';
import type { RunOrchestrator } from '../domain/run-orchestrator';
import type { RunWaiting } from '../domain/run-waiter';
import { authOf, type GatewayResponse } from '../locals';
import { defineRoute } from '../middleware/method-not-allowed';
import { noStore } from '../middleware/no-store';
import { objectBody, parseRequest } from '../middleware/validate';

export interface CrtRunRouteOptions {
  /** ms the request waits for the run to finish before answering 202 (CRT_RUN_WAIT_MS, 55,000). */
  readonly waitMs: number;
}

/** Aborts when the client goes away, so its waiter is released instead of held to the deadline. */
function closeSignal(res: GatewayResponse): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const onClose = (): void => controller.abort();
  res.once('close', onClose);
  return { signal: controller.signal, release: () => res.off('close', onClose) };
}

/**
 * `POST /api/capabilities/crt/run` (spec §4.5; design "Flow" steps 1, 2 and 5). Mounted at
 * /api/capabilities, before the discovery router, with case-sensitive matching: `/CRT/run` is not
 * this route. Every other slug (and `/CRT/run`) goes on to the generic run route (quote-run.ts,
 * spec §4.4), which answers as soon as the run is recorded instead of waiting for it.
 *
 * Auth comes before the body (an unauthenticated request is not read), then the header and the body
 * are checked (422 naming the field), the orchestrator records and queues the run, and the request
 * waits for the run to finish (RunWaiter) up to `waitMs`; crtRunAnswer() picks the answer.
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
        const { clientId } = authOf(res);
        const idempotencyKey = headers['idempotency-key'];

        const started = await orchestrator.startCrtRun({
          client_id: clientId,
          input: request.input,
          client_type: request.client_type,
          ...(request.quote_id === undefined ? {} : { quote_id: request.quote_id }),
          ...(idempotencyKey === undefined ? {} : { idempotency_key: idempotencyKey }),
        });

        const closed = closeSignal(res);
        let run: typeof started.run;
        try {
          run = await waiter.wait(clientId, started.run, {
            timeoutMs: options.waitMs,
            signal: closed.signal,
          });
        } finally {
          closed.release();
        }

        const answer = crtRunAnswer({ replay: started.replay, quote: started.quote, run, idempotencyKey });
        sendAnswer(res, answer);
      },
    ],
  });

  return router;
}
