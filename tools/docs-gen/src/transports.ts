import { eventChannel, jobQueueName, serviceInstancesKey } from '@svc/bus';
import { rpcReplyChannel, rpcRequestListKey } from '../../../packages/bus/src/names';
import { code, table } from './markdown';

/**
 * How messages travel between the processes, and under which Redis names (the naming functions of
 * @svc/bus names.ts, called with placeholders). Each row says which Redis structure carries it;
 * test/transports.int.test.ts sends each kind of message through a real bus and checks that
 * structure in Redis, so this table cannot say "BullMQ" where the code uses a list.
 */

/** The Redis structure a message kind lives in (what `TYPE`/`PUBSUB CHANNELS` show). */
export type RedisCarrier = 'list' | 'pubsub' | 'bullmq' | 'zset';

export interface Transport {
  message: string;
  carrier: RedisCarrier;
  how: string;
  /** What the name is of (`<service>`, `<event>`…), shown in its place. */
  subject: string;
  /** The Redis name of one `subject` under `prefix`, from the bus's naming function. */
  name: (prefix: string, subject: string) => string;
  declaredIn: string;
}

const CARRIER_TEXT: Readonly<Record<RedisCarrier, string>> = {
  list: 'Redis list',
  pubsub: 'Redis pub/sub channel',
  bullmq: 'BullMQ queue (Redis)',
  zset: 'Redis sorted set',
};

export const TRANSPORTS: readonly Transport[] = [
  {
    message: 'RPC request',
    carrier: 'list',
    how: "LPUSH by the caller, BLMPOP by one of the service's responders; sealed, with a deadline",
    subject: '<service>',
    name: rpcRequestListKey,
    declaredIn: '`rpc` (@svc/contracts messages/rpc.ts)',
  },
  {
    message: 'RPC reply',
    carrier: 'pubsub',
    how: 'PUBLISH to the calling process (one channel per bus)',
    subject: '<caller id>',
    name: rpcReplyChannel,
    declaredIn: 'the method’s `response`',
  },
  {
    message: 'event',
    carrier: 'pubsub',
    how: 'PUBLISH to every subscribed replica; lossy (consumers also poll or expire)',
    subject: '<event>',
    name: eventChannel,
    declaredIn: '`events` (@svc/contracts messages/events.ts)',
  },
  {
    message: 'job',
    carrier: 'bullmq',
    how: 'added by the producer, taken by one worker; retried with backoff, deduplicated by job id',
    subject: '<job>',
    // BullMQ keeps a queue in several keys, `<prefix>:<queue>:<type>`.
    name: (prefix, job) => `${prefix}:${jobQueueName(job)}:*`,
    declaredIn: '`jobs` (platform jobs in @svc/contracts, capability jobs in @svc/capabilities)',
  },
  {
    message: 'service readiness',
    carrier: 'zset',
    how: "each instance's id scored by when its report lapses; read by the gateway's /readyz",
    subject: '<service>',
    name: serviceInstancesKey,
    declaredIn: '@svc/bus service-presence.ts',
  },
];

/** The `transports` region. */
export function transportsRegion(transports: readonly Transport[] = TRANSPORTS): string {
  return table(
    ['message', 'carried by', 'how', 'Redis name', 'declared in'],
    transports.map((transport) => [
      transport.message,
      CARRIER_TEXT[transport.carrier],
      transport.how,
      code(transport.name('<prefix>', transport.subject)),
      transport.declaredIn,
    ]),
  );
}
