export { type CapabilityRecordOptions, capabilityRecord, FREE_PRICING } from './capability-records';

// @svc/testkit: the integration-test harness (docs/architecture.md "Layout"). A suite that only
// calls the platform's API attaches to the jest run's shared platform with sharedTestStack(); one
// that kills, restarts or reconfigures services starts a private copy with startTestStack(). Both
// are closed in afterAll.

export type { StatementListener } from '@svc/db';
// The platform's service list lives in @svc/devstack (shared with the launcher); re-exported for suites.
export { SERVICE_NAMES, type ServiceName, type ServicePorts } from '@svc/devstack';
// Lives in @svc/s3-test-server, so @svc/storage's tests can have it without depending on testkit (a cycle).
export {
  type S3rverEnv,
  type S3rverRequest,
  type StartS3rverOptions,
  startS3rver,
  type TestS3rver,
} from '@svc/s3-test-server';
export { type CreateApiKeyOptions, type TestApiKey, usdToMicros } from './api-keys';
export type { ExitStatus } from './child-service';
export {
  type AccountDatabase,
  type CreateTestAccountOptions,
  createTestAccount,
  type TestAccount,
} from './dashboard-accounts';
export {
  type ExecutionProbeOptions,
  executionProbe,
  type RunExecutions,
  readExecutions,
} from './execution-log';
export type { FakeCtBehaviour } from './fake-ct/behaviour';
export {
  CertSpotterIssuance,
  CrtShRow,
  type CtDataset,
  ctDatasetFromCertificates,
  ExpectedObservation,
  exampleComDataset,
  exampleComExpectedObservations,
  type FakeCertificate,
} from './fake-ct/datasets';
export {
  type FakeCtProvider,
  type FakeCtProviderName,
  type FakeCtProviders,
  type FakeCtProvidersOptions,
  type FakeCtRequest,
  type SetBehaviourOptions,
  startFakeCtProviders,
} from './fake-ct-providers';
export { type FetchResult, listenOnLoopback, type StackFetchInit, sleep } from './http';
export {
  IN_PROCESS_TIMEOUT_MS,
  type InProcessContext,
  type InProcessPlatform,
  type InProcessService,
  type InProcessServices,
  type OwnedResource,
  type StartInProcessPlatformOptions,
  startInProcessPlatform,
} from './in-process-platform';
export { type PollOptions, pollUntil } from './poll';
export { type PrivateRedis, startPrivateRedis } from './private-redis';
export { countKeysWithPrefix, deleteKeysWithPrefix, scanKeysWithPrefix } from './redis-cleanup';
export { type DumpedKey, dumpKeysWithPrefix } from './redis-dump';
export { type CommandResult, type RunCommandOptions, runCommand } from './run-command';
export { onePagePdf } from './sample-pdf';
export { type ServiceNodeArgumentOptions, serviceNodeArguments } from './service-bundles';
export { SHARED_STACK_BEFORE_ALL_MS, type SharedTestStack, sharedTestStack } from './shared-stack';
export { type StackReplica, type StartTestStackOptions, startTestStack, type TestStack } from './stack';
export type { StackApi } from './stack-api';
export { type StatementCount, StatementCounter } from './statement-counter';
export { insertSyntheticCapabilities } from './synthetic-catalog';
export { startTcpProxy, type TcpProxy } from './tcp-proxy';
export {
  createTestBus,
  type TestBus,
  testBusEncryptionKeys,
  testBusEncryptionKeyText,
  testRedisUrl,
} from './test-bus';
export { createTestDatabase, type TestDatabase, testAdminUrl } from './test-database';
