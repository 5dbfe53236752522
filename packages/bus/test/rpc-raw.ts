import { randomUUID } from 'node:crypto';
import { memoryLogger } from '@svc/log';
import { BusSealer, createRedis, rpcQueueName } from '../src';
import { rpcReplyChannel, rpcRequestListKey } from '../src/names';
import { sealingContext } from '../src/sealing';

export interface RawRequestsOptions {
  redisUrl: string;
  prefix: string;
  service: string;
  keys: readonly Uint8Array[];
}

export interface PushOptions {
  /** Default true: seal the inner part as a caller does. */
  seal?: boolean;
  /** The reply channel written inside the seal, when it should differ from the plain one. */
  sealedReplyTo?: string;
}

/**
 * A caller written by hand: pushes request messages (well-formed or not) straight onto a service's
 * list, and collects the replies published on a reply channel of its own, by request id.
 */
export function rawRpcRequests({ redisUrl, prefix, service, keys }: RawRequestsOptions) {
  const { logger } = memoryLogger();
  const sealer = new BusSealer(keys);
  const channel = rpcReplyChannel(prefix, `raw-${randomUUID()}`);
  const listKey = rpcRequestListKey(prefix, service);
  const queue = rpcQueueName(service);
  const producer = createRedis(redisUrl, { role: 'worker', name: `${prefix}:raw-producer`, logger });
  const subscriber = createRedis(redisUrl, { role: 'subscriber', name: `${prefix}:raw-replies`, logger });
  const replies = new Map<string, unknown>();
  subscriber.on('message', (_channel: string, message: string) => {
    const parsed = JSON.parse(message) as { id: string; reply: unknown };
    replies.set(parsed.id, parsed.reply);
  });
  const subscribed = subscriber.subscribe(channel);

  return {
    sealer,
    replies,
    channel,
    ready: async () => void (await subscribed),
    /** Pushes `inner` (what a caller seals: request, deadline) as `method`; returns the request id. */
    async push(method: string, inner: Record<string, unknown>, options: PushOptions = {}): Promise<string> {
      const id = randomUUID();
      const sealedPart = { id, reply_to: options.sealedReplyTo ?? channel, ...inner };
      const request =
        options.seal === false
          ? sealedPart
          : sealer.seal(sealedPart, sealingContext.rpcRequest(prefix, queue, method));
      const deadline = typeof inner.deadline === 'number' ? inner.deadline : Date.now() + 5_000;
      await producer.lpush(listKey, JSON.stringify({ id, method, deadline, reply_to: channel, request }));
      return id;
    },
    async pushText(text: string): Promise<void> {
      await producer.lpush(listKey, text);
    },
    async close(): Promise<void> {
      await subscriber.quit();
      await producer.quit();
    },
  };
}
