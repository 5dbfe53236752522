import type { JobsOptions } from 'bullmq';
import type { z } from 'zod';

/**
 * The shape of the message catalog a bus is handed (`createBus({ catalog })`): the bus knows no
 * application message. The platform's catalog lives with the contracts (@svc/contracts
 * `platformCatalog`, completed with the capability jobs by @svc/capabilities `messageCatalog`).
 * Names are wire contracts (queue `rpc.<service>`, `jobs.<name>`, channel `<prefix>:events:<name>`):
 * renaming an entry renames its queue (names.ts).
 */

/** One RPC method: what the caller sends and what the service answers (`data` of an ok envelope). */
export interface RpcMethod<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  request: Req;
  response: Res;
}

/** The methods of one service. `ping` is answered by `serveRpc` itself (see PingAnswer). */
export type RpcMethods = Record<string, RpcMethod>;

/** What `serveRpc` answers to `ping` for every service: a catalog's `ping` response accepts it. */
export interface PingAnswer {
  service: string;
  pid: number;
  /** s: process uptime of the answering replica. */
  uptime_s: number;
}

/** A background job type: payload and result schemas plus the queue options of its jobs. */
export interface JobDefinition<Payload extends z.ZodType = z.ZodType, Result extends z.ZodType = z.ZodType> {
  payload: Payload;
  result: Result;
  options: Pick<JobsOptions, 'attempts' | 'backoff' | 'removeOnComplete' | 'removeOnFail'>;
  /** Once a job has finished for good its retained copy keeps no payload (jobs.ts). */
  dropDataWhenFinished?: boolean;
}

/** What a bus is handed: RPC methods by service, jobs by name, events by name. */
export interface BusCatalog {
  rpc: Readonly<Record<string, RpcMethods>>;
  jobs: Readonly<Record<string, JobDefinition>>;
  events: Readonly<Record<string, z.ZodType>>;
}

export type RpcServiceOf<C extends BusCatalog> = keyof C['rpc'] & string;
export type JobNameOf<C extends BusCatalog> = keyof C['jobs'] & string;
export type EventNameOf<C extends BusCatalog> = keyof C['events'] & string;

/** What an enqueuer passes for a job (schema input: defaults may be omitted). */
export type JobPayloadInputOf<D extends JobDefinition> = z.input<D['payload']>;
/** What a job handler receives (parsed). */
export type JobPayloadOf<D extends JobDefinition> = z.output<D['payload']>;
/** What a job handler returns (schema input: the worker parses it). */
export type JobResultInputOf<D extends JobDefinition> = z.input<D['result']>;

/**
 * `table[key]` typed as `T[K]`: indexing a catalog member of a generic catalog directly is typed by
 * the constraint's index signature (`… | undefined`), although the key is one of the catalog's.
 * Callers check `Object.hasOwn` first.
 */
export function catalogEntry<T extends object, K extends keyof T>(table: T, key: K): T[K] {
  return table[key];
}
