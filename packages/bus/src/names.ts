/**
 * Registry of every Redis name the bus uses (queue names and pub/sub channels). Keys that services
 * share among themselves (run cancel markers, runtime workers) are contracts: @svc/contracts keys.ts.
 *
 * These names are a wire contract between deployed processes: jobs already waiting in a queue are
 * only ever seen by workers listening on the same name. NEVER rename a queue or channel without a
 * drain plan (stop producers, let consumers empty the old queue, then switch), and never reuse an
 * old name for a different payload.
 *
 * BullMQ 6 rejects queue names that contain `:` (it uses `:` to build its own keys,
 * `<prefix>:<queue>:<type>`), so the `rpc:<service>` / `jobs:<name>` of docs/architecture.md are
 * spelled `rpc.<service>` / `jobs.<name>` here. Every key is further namespaced by the bus prefix
 * (BullMQ `prefix` option), so several environments or test suites can share one Redis.
 */

/** Queue a service answers its RPC methods on: `rpc.registry`, `rpc.wallet`, … */
export function rpcQueueName(service: string): string {
  return `rpc.${service}`;
}

/**
 * Redis list holding the requests to one service (LPUSH by callers, BLMPOP by its responders):
 * `<prefix>:rpc.wallet`. BullMQ's keys of a queue are `<prefix>:<queue>:<type>`, so this key never
 * collides with what an older BullMQ-based responder left under the same queue name.
 */
export function rpcRequestListKey(prefix: string, service: string): string {
  return `${prefix}:${rpcQueueName(service)}`;
}

/** Pub/sub channel one RPC caller (one bus) receives its replies on: `<prefix>:rpc-replies:<id>`. */
export function rpcReplyChannel(prefix: string, callerId: string): string {
  return `${prefix}:rpc-replies:${callerId}`;
}

/** Queue of one background job type: `jobs.system.echo`, … */
export function jobQueueName(job: string): string {
  return `jobs.${job}`;
}

/** Pub/sub channel of one event type, namespaced by the bus prefix: `<prefix>:events:catalog.changed`. */
export function eventChannel(prefix: string, event: string): string {
  return `${prefix}:events:${event}`;
}

/**
 * Instances of one service that reported themselves ready: a sorted set of instance ids scored by
 * when that report lapses (ms since the epoch), like `runtimeWorkersKey`. "Is uploads ready?" is
 * `ZCOUNT <key> (<now> +inf` > 0 (service-presence.ts).
 */
export function serviceInstancesKey(prefix: string, service: string): string {
  return `${prefix}:services:${service}`;
}
