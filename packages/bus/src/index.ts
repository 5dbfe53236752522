export { type Bus, type CreateBusOptions, createBus } from './bus';
export {
  type EventCatalog,
  type EventName,
  type EventPayload,
  type EventPayloadInput,
  eventCatalog,
  isEventName,
} from './catalog/events';
export {
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
  IssueQuoteRequest,
  isRpcService,
  PingRequest,
  PingResponse,
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
  type ProcessJobsOptions,
  processJobs,
} from './jobs';
export { eventChannel, jobQueueName, rpcQueueName } from './names';
export { type CreateRedisOptions, createRedis, type RedisRole, redactRedisUrl } from './redis';
export { createRpcClient, type RpcClient, type RpcClientOptions } from './rpc/client';
export { type RpcServer, type ServeRpcOptions, type ServiceHandlers, serveRpc } from './rpc/server';
export type { RpcContext, RpcHandler, RpcHandlers } from './rpc/types';
