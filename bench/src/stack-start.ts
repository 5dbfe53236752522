// ms a bench stack's services get to answer /healthz and /readyz: the testkit's 30 s default is for
// test runs; on a shared 2-core machine under load six tsx processes compiling at once take longer,
// and a bench that cannot start measures nothing.
export const BENCH_START_TIMEOUT_MS = 180_000;
