import { CapabilitySlugParams, QuoteRequest, RunHeaders, RunRequest } from '@svc/contracts';
import { Router } from 'express';
import { quoteCapability, startCapabilityRun } from '../domain/capability-runs';
import { runStartAnswer, sendAnswer } from '../domain/run-answers';
import type { RunOrchestrator } from '../domain/run-orchestrator';
import { authOf } from '../locals';
import { defineRoute } from '../middleware/method-not-allowed';
import { noStore } from '../middleware/no-store';
import { objectBody, parseRequest } from '../middleware/validate';
import type { RouteKit } from '../route-kit';

/**
 * Quote and run of any capability, spec §4.3 and §4.4 (design "Flow: Quote" and "Flow: Run" step
 * 1). Mounted at /api/capabilities after the crt route, which keeps `POST /crt/run` for itself.
 *
 * Thin on purpose: the key and its scope first (an unauthenticated body is never read), then the
 * JSON body middleware (415/413/400), then the slug, header and envelope shapes (422 naming the
 * field, without an orchestrator call), then one RPC. Everything the capability decides (unknown
 * slug 404, execution mode 409, input 422, price, quote checks, wallet 402) is the orchestrator's
 * answer, passed through unchanged. A malformed slug is 422 here (D2: a path shape is validated like
 * a body), where describe answers 404 (G1): a client that quotes has already described the slug.
 */
export function quoteRunRouter(kit: RouteKit, orchestrator: RunOrchestrator): Router {
  const router = Router();

  defineRoute(router, '/:slug/quote', {
    post: [
      noStore,
      kit.requireAuth('capabilities:quote'),
      ...kit.jsonBody,
      async (req, res) => {
        const { slug } = parseRequest(CapabilitySlugParams, req.params);
        const request = parseRequest(QuoteRequest, objectBody(req, '(QuoteRequest)'));
        res.json(await quoteCapability(orchestrator, authOf(res).clientId, slug, request));
      },
    ],
  });

  defineRoute(router, '/:slug/run', {
    post: [
      noStore,
      kit.requireAuth('capabilities:run'),
      ...kit.jsonBody,
      async (req, res) => {
        const { slug } = parseRequest(CapabilitySlugParams, req.params);
        const headers = parseRequest(
          RunHeaders,
          { 'idempotency-key': req.headers['idempotency-key'] },
          'headers',
        );
        const request = parseRequest(RunRequest, objectBody(req, '(RunRequest)'));
        // Optional at this layer: whether a key and a quote are required depends on the price,
        // which only the orchestrator knows (422 naming the price when missing).
        const started = await startCapabilityRun(
          orchestrator,
          authOf(res).clientId,
          slug,
          request,
          headers['idempotency-key'],
        );
        const answer = runStartAnswer(started);
        sendAnswer(res, answer);
      },
    ],
  });

  return router;
}
