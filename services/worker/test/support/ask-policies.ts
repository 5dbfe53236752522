import type { AskPolicies } from '../../src/handlers/capability-job';

/**
 * The worker's ask-until-answered policies for suites that take Redis or the orchestrator away for a
 * while: quick first retries (50 ms, at most 500 ms apart), and a final report that keeps asking
 * for 2 minutes, longer than any outage the suites make.
 */
export const OUTAGE_ASK_POLICIES: AskPolicies = {
  claim: { firstDelayMs: 50, maxDelayMs: 500, giveUpAfterMs: 30_000 },
  final: { firstDelayMs: 50, maxDelayMs: 500, giveUpAfterMs: 120_000 },
  retrying: { firstDelayMs: 50, maxDelayMs: 500, giveUpAfterMs: 5_000 },
};
