export { type Bus, type CreateBusOptions, createBus } from './bus';
export type {
  BusCatalog,
  EventNameOf,
  JobDefinition,
  JobNameOf,
  JobPayloadInputOf,
  JobPayloadOf,
  JobResultInputOf,
  PingAnswer,
  RpcMethod,
  RpcMethods,
  RpcServiceOf,
} from './catalog';
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
export { eventChannel, jobQueueName, rpcQueueName, serviceInstancesKey } from './names';
export { type CreateRedisOptions, createRedis, type RedisRole, redactRedisUrl } from './redis';
export { ANSWER_RESERVE_MS, NESTED_CALL_MARGIN_MS } from './rpc/deadline';
export {
  createInMemoryRpc,
  InMemoryRpc,
  type InMemoryRpcOptions,
  type PlannedAnswer,
  type RecordedCall,
  type RpcFault,
} from './rpc/in-memory-transport';
export { type RpcServer, type ServeRpcOptions, type ServiceHandlers, serveRpc } from './rpc/server';
export type { RpcContext, RpcHandler, RpcHandlers } from './rpc/types';
export {
  type KeepJobScheduledOptions,
  type KeptSchedule,
  keepJobScheduled,
  runScheduledJob,
  SCHEDULE_CHECK_INTERVAL_MS,
} from './schedules';
export { BUS_KEY_BYTES, BusSealer, SealError, type SealedValue } from './sealing';
export {
  type MethodClient,
  type MethodsClient,
  type RpcCarrier,
  type ServiceClient,
  type ServiceClientOptions,
  serviceClient,
} from './service-client';
export {
  readServiceReadiness,
  SERVICE_PRESENCE_INTERVAL_MS,
  SERVICE_PRESENCE_TTL_MS,
  type ServicePresence,
  type ServicePresenceOptions,
  servicePresence,
} from './service-presence';
