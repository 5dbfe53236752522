import { apiOperation } from '@svc/contracts';
import { quoteCapability } from '../domain/capability-runs';
import { waitAsPreferred } from '../domain/prefer-wait';
import { runStartAnswer } from '../domain/run-answers';
import type { RunOrchestrator } from '../domain/run-orchestrator';
import { startCapabilityRun } from '../domain/run-start';
import type { RunWaiting } from '../domain/run-waiter';
import { route } from '../routing/route';

/**
 * Quote and run of any capability, spec §4.3 and §4.4 (design "Flow: Quote" and "Flow: Run" step
 * 1). `POST /crt/run` is crt's own operation (crt-run.ts); a literal path wins over the template.
 *
 * Thin on purpose: the route checks the key and scope, reads the body (415/413/400) and checks the
 * slug, header and envelope shapes (422 naming the field) from the operation, without an
 * orchestrator call; then one RPC. Everything the capability decides (unknown slug 404, execution
 * mode 409, input 422, price, quote checks, wallet 402) is the orchestrator's answer, passed through
 * unchanged. A malformed slug is 422 here (D2: a path shape is validated like a body), where describe
 * answers 404 (G1): a client that quotes has already described the slug.
 */
export function quoteRunRoutes(orchestrator: RunOrchestrator, waiter: RunWaiting) {
  return {
    quoteCapability: route(apiOperation('quoteCapability'), async ({ auth, params, body }) => ({
      status: 200,
      body: await quoteCapability(orchestrator, auth.clientId, params.slug, body),
    })),
    // The Idempotency-Key is optional at this layer: whether a key and a quote are required depends
    // on the price, which only the orchestrator knows (422 naming the price when missing).
    // With `Prefer: wait=N`, the answer waits up to N s for the run to end (prefer-wait.ts).
    runCapability: route(apiOperation('runCapability'), async ({ auth, params, headers, body }, context) => {
      const started = await startCapabilityRun(orchestrator, params.slug, {
        clientId: auth.clientId,
        request: body,
        idempotencyKey: headers['idempotency-key'],
      });
      const waited = await waitAsPreferred(
        waiter,
        auth.clientId,
        started.run,
        headers.prefer,
        context.clientGone(),
      );
      return runStartAnswer({ ...started, run: waited.run }, waited.headers);
    }),
  };
}
