// Loaded into a test stack's worker processes with `--import` (execution-log.ts says how): it
// wraps the handler of each capability named in SVC_TEST_EXECUTION_SLUGS so that every
// execution appends `start <run_id> <pid> <epoch ms>` before the capability's code runs and
// `done <run_id> <pid> <epoch ms> <outcome>` once it returned, to the file SVC_TEST_EXECUTION_LOG. The fault
// suites count executions per run from that file: an observer outside the run path under test
// (reports, claims, the orchestrator's own attempt count), so "executed twice" is measured, not
// inferred from the code's own bookkeeping. appendFileSync: a line written is on disk before the
// next statement, so a SIGKILL right after an execution cannot hide it. Test-only; never in a
// service's own code.
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { AnyCapabilityHandlerFactory, CapabilityHandler } from '@svc/capabilities';

const logFile = process.env.SVC_TEST_EXECUTION_LOG;
const slugs = (process.env.SVC_TEST_EXECUTION_SLUGS ?? '').split(',').filter((slug) => slug !== '');
const isWorker = (process.argv[1] ?? '').endsWith(join('services', 'worker', 'src', 'main.ts'));

function isFactory(value: unknown): value is AnyCapabilityHandlerFactory {
  return (
    typeof value === 'object' && value !== null && 'create' in value && typeof value.create === 'function'
  );
}

function defaultExport(module: unknown): unknown {
  return typeof module === 'object' && module !== null && 'default' in module ? module.default : undefined;
}

function instrument(factory: AnyCapabilityHandlerFactory, file: string): void {
  const create = factory.create.bind(factory);
  factory.create = (deps) => {
    const handler: CapabilityHandler<unknown> = create(deps);
    const run = handler.run.bind(handler);
    handler.run = async (context) => {
      appendFileSync(file, `start ${context.runId} ${process.pid} ${Date.now()}\n`);
      const outcome = await run(context);
      appendFileSync(file, `done ${context.runId} ${process.pid} ${Date.now()} ${outcome.kind}\n`);
      return outcome;
    };
    return handler;
  };
}

if (logFile !== undefined && isWorker) {
  // The worker loads `<slug>/handler` with import(); under tsx that is the same module instance as
  // this require() (one CommonJS cache), so wrapping its factory here reaches the worker's handler.
  const requireModule = createRequire(__filename);
  const capabilitiesDir = dirname(requireModule.resolve('@svc/capabilities'));
  for (const slug of slugs) {
    const loaded: unknown = requireModule(join(capabilitiesDir, slug, 'handler'));
    const factory = defaultExport(loaded);
    if (!isFactory(factory)) throw new Error(`execution probe: ${slug}/handler has no handler factory`);
    instrument(factory, logFile);
  }
}
