/**
 * Named crash points for the run path's crash tests (issue 15): `SVC_CRASH_AT=<name>` makes the
 * process die (SIGKILL to itself: no finally blocks, no graceful shutdown, exactly like a `kill -9`)
 * the first time it reaches `crashPoint(<name>)`. Unset in production: the check is one string
 * comparison against a value read once. Several names may be given, comma-separated.
 *
 * Names in use (keep this list in step with the calls):
 * - `orchestrator.run-recorded`: the run row is committed, nothing else done (no hold, no job);
 * - `orchestrator.hold-confirmed`: the wallet confirmed the hold, the run is not yet dispatched;
 * - `worker.run-finished`: the capability returned its outcome, the report is not yet sent;
 * - `orchestrator.report-applied`: a final report is committed, settlement not yet asked for.
 */
const armed: ReadonlySet<string> = new Set(
  (process.env.SVC_CRASH_AT ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== ''),
);

export function crashPoint(name: string): void {
  if (armed.size === 0 || !armed.has(name)) return;
  process.stderr.write(`crash point ${name}: SVC_CRASH_AT asked this process to die here\n`);
  process.kill(process.pid, 'SIGKILL');
}
