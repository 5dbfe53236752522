// jest globalTeardown of the `integration` project: stops what jest/integration-setup.ts started
// (an embedded PostgreSQL, a spawned redis-server), newest first. Servers it found running are left alone.
import { stopSharedStack } from '../packages/testkit/src/shared-stack-files';
import { takeIntegrationStack } from './integration-stack';

export default async function integrationTeardown(): Promise<void> {
  // The platform the API suites shared (sharedTestStack), before the servers it runs on.
  await stopSharedStack();
  const stack = takeIntegrationStack();
  if (stack === undefined) return;
  const failures: unknown[] = [];
  for (const stop of [...stack.stops].reverse()) {
    try {
      await stop();
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length > 0)
    throw new AggregateError(failures, 'integration teardown: some servers did not stop');
}
