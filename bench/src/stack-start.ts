import { type StartTestStackOptions, startTestStack, type TestStack } from '@svc/testkit';

// ms a bench stack's services get to answer /healthz and /readyz: the testkit's 30 s default is for
// test runs; on a shared 2-core machine under load a stack's tsx processes compiling at once take longer,
// and a bench that cannot start measures nothing.
export const BENCH_START_TIMEOUT_MS = 180_000;

/**
 * A private test stack for one bench: quiet, with BENCH_START_TIMEOUT_MS, and LOG_LEVEL warn unless
 * `options.env` says otherwise (at info the gateway writes one line per request, which would
 * measure our log pipe, the harness capturing every line in memory, more than the platform).
 */
export function startBenchStack(options: StartTestStackOptions): Promise<TestStack> {
  return startTestStack({
    quiet: true,
    startTimeoutMs: BENCH_START_TIMEOUT_MS,
    ...options,
    env: { LOG_LEVEL: 'warn', ...options.env },
  });
}
