import { createRedis, type RpcServer } from '@svc/bus';
import { createLogger } from '@svc/log';
import {
  createTestBus,
  type FakeCtProviders,
  startFakeCtProviders,
  type TestBus,
  testRedisUrl,
} from '@svc/testkit';
import { FakeOrchestrator } from './fake-orchestrator';

/**
 * What the suites that run real worker processes share: a bus prefix of their own, the test's own
 * Redis connection (to look at queues and keys), the fake CT providers, and the test playing the
 * orchestrator on `rpc.orchestrator` (claims and reports, support/fake-orchestrator.ts).
 */
export interface WorkerRig {
  readonly testBus: TestBus;
  readonly redis: ReturnType<typeof createRedis>;
  readonly fakes: FakeCtProviders;
  readonly orchestrator: FakeOrchestrator;
  close(): Promise<void>;
}

export async function startWorkerRig(label: string): Promise<WorkerRig> {
  const testBus = createTestBus(label);
  const redis = createRedis(testRedisUrl(), {
    role: 'worker',
    name: `${label}-test`,
    logger: createLogger({ service: `${label}-test`, level: 'silent' }),
  });
  const fakes = await startFakeCtProviders();
  const orchestrator = new FakeOrchestrator();
  const server: RpcServer = orchestrator.serve(testBus.bus);
  await server.waitUntilReady();
  return {
    testBus,
    redis,
    fakes,
    orchestrator,
    async close() {
      await server.close();
      await fakes.close();
      await redis.quit();
      await testBus.close();
    },
  };
}
