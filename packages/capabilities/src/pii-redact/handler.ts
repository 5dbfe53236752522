import { defineHandler } from '../kit/handler';
import { redactPii } from './redact-pii';
import type { PiiRedactInput, PiiRedactResult } from './schema';

/**
 * pii-redact on a worker (runtime node): `redactPii` is pure and synchronous (at most 200,000
 * characters: milliseconds, well inside the job lock), so it always completes; only a bug throws
 * (retried, then `internal`).
 */
export default defineHandler<PiiRedactInput, PiiRedactResult>(() => ({
  run: async ({ input }) => ({ kind: 'completed', result: redactPii(input) }),
}));
