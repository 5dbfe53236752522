import type { Logger } from '@svc/log';
import type { Redis } from 'ioredis';
import { createErrorLogLimiter } from '../redis';
import { createBatcher } from './batch';

interface Reply {
  channel: string;
  text: string;
  method: string;
  deadline: number;
  done: () => void;
}

/**
 * PUBLISHes replies through the bus producer, the replies of one event-loop turn in one pipeline.
 * A reply that cannot be sent (Redis down) is lost: its caller fails at its deadline with 503. Lost
 * replies are logged, rate-limited; the returned promise always resolves (once sent or lost).
 */
export function createReplySender(
  /** The bus producer, taken when the responder starts: replies still go out during bus.close(). */
  producer: Redis,
  logger: Logger,
): (channel: string, text: string, method: string, deadline: number) => Promise<void> {
  const limiter = createErrorLogLimiter();
  const lost = (method: string, err: unknown) => {
    const verdict = limiter.record();
    if (verdict.log) {
      const text = err instanceof Error ? err.message : String(err);
      logger.warn({ method, err: text, suppressed: verdict.suppressed }, 'rpc: reply not sent');
    }
  };

  const flush = async (batch: Reply[]) => {
    try {
      // Waits (until the latest deadline) only while the producer's connection is being made.
      const latest = Math.max(...batch.map((reply) => reply.deadline));
      if (!(await connected(producer, latest - Date.now()))) throw new Error('Redis is unreachable');
      const pipeline = producer.pipeline();
      for (const reply of batch) pipeline.publish(reply.channel, reply.text);
      const results = await pipeline.exec();
      batch.forEach((reply, index) => {
        const err = results?.[index]?.[0];
        if (err) lost(reply.method, err);
      });
    } catch (err) {
      for (const reply of batch) lost(reply.method, err);
    } finally {
      for (const reply of batch) reply.done();
    }
  };
  const send = createBatcher<Reply>((batch) => void flush(batch));

  return (channel, text, method, deadline) =>
    new Promise<void>((done) => send({ channel, text, method, deadline, done }));
}

/**
 * True when `redis` can take commands: at once when ready, false at once when known down, else
 * after waiting up to `maxWaitMs` for the connection being made.
 */
async function connected(redis: Redis, maxWaitMs: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  if (redis.status !== 'connecting' && redis.status !== 'connect') return false;
  return new Promise<boolean>((resolve) => {
    const finish = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('close', onClose);
      resolve(ready);
    };
    const onReady = () => finish(true);
    const onClose = () => finish(false);
    const timer = setTimeout(onClose, Math.max(1, maxWaitMs));
    redis.once('ready', onReady);
    redis.once('close', onClose);
  });
}
