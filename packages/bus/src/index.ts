export { type Bus, type CreateBusOptions, createBus } from './bus';
export {
  type CapabilityDirectory,
  type CapabilityDirectoryOptions,
  createCapabilityDirectory,
  type FetchCapability,
} from './capability-directory';
export {
  type EventCatalog,
  type EventName,
  type EventPayload,
  type EventPayloadInput,
  eventCatalog,
  isEventName,
} from './catalog/events';
export {
  CAPABILITY_JOBS,
  type CapabilityJobName,
  capabilityJobName,
  INTERNAL_RUN_ERROR,
  type JobCatalog,
  type JobDefinition,
  type JobName,
  type JobPayload,
  type JobPayloadInput,
  type JobResult,
  type JobResultInput,
  jobCatalog,
  RunMetrics,
  RunReport,
} from './catalog/jobs';
export {
  CancelRunResult,
  HoldForRunRequest,
  HoldForRunResponse,
  IssueQuoteRequest,
  isRpcService,
  OpenHoldsRequest,
  OpenHoldsResponse,
  PingRequest,
  PingResponse,
  QuoteCapabilityRequest,
  RPC_SERVICES,
  type RpcCatalog,
  type RpcMethod,
  type RpcMethodName,
  type RpcRequest,
  type RpcRequestInput,
  type RpcResponse,
  type RpcResponseInput,
  type RpcService,
  rpcCatalog,
  StartCrtRunRequest,
  StartRunRequest,
  StartRunResponse,
} from './catalog/rpc';
export { type Closable, closeWithin } from './closable';
export {
  type EventHandler,
  type EventHandlers,
  publishEvent,
  type Subscription,
  subscribeEvents,
} from './events';
export {
  type EnqueueOptions,
  enqueueJob,
  type JobContext,
  type JobHandler,
  type JobProcessor,
  openJobData,
  type ProcessJobsOptions,
  processJobs,
  removeWaitingJob,
  type ScheduleRepeatingJobOptions,
  scheduleRepeatingJob,
} from './jobs';
export {
  eventChannel,
  jobQueueName,
  RUN_CANCEL_KEY_TTL_MS,
  rpcQueueName,
  runCancelKey,
  runtimeWorkersKey,
  serviceInstancesKey,
} from './names';
export { type CreateRedisOptions, createRedis, type RedisRole, redactRedisUrl } from './redis';
export { createRpcClient, type RpcClient, type RpcClientOptions } from './rpc/client';
export { type RpcServer, type ServeRpcOptions, type ServiceHandlers, serveRpc } from './rpc/server';
export type { RpcContext, RpcHandler, RpcHandlers } from './rpc/types';
export { BUS_KEY_BYTES, BusSealer, SealError, type SealedValue } from './sealing';
export {
  readServiceReadiness,
  SERVICE_PRESENCE_INTERVAL_MS,
  SERVICE_PRESENCE_TTL_MS,
  type ServicePresence,
  type ServicePresenceOptions,
  servicePresence,
} from './service-presence';
