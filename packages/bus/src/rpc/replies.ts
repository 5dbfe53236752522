import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { BusImpl } from '../bus';
import { closeWithin, once } from '../closable';
import { rpcReplyChannel } from '../names';
import { createRedis } from '../redis';
import { parseReplyMessage } from './wire';

/** How a pending call ends, as the router sees it (the client turns it into an answer or an error). */
export type CallOutcome =
  | { kind: 'reply'; reply: unknown }
  | { kind: 'timeout' }
  /** The reply can no longer arrive: the reply connection dropped, or the bus closed. */
  | { kind: 'lost'; reason: string };

/**
 * The replies of every call made through one bus: one pub/sub connection subscribed to the bus's own
 * channel (`<prefix>:rpc-replies:<random id>`), one timer per call, replies matched to calls by id.
 * A reply whose call is gone (timed out, abandoned) matches nothing and is dropped.
 */
export class ReplyRouter {
  readonly channel: string;
  private readonly redis: Redis;
  private readonly pending = new Map<string, { settle: (outcome: CallOutcome) => void }>();
  /** Resolves true once the channel is subscribed on the current connection, false if it drops first. */
  private subscription!: Promise<boolean>;
  private settleSubscription: (subscribed: boolean) => void = () => {};
  private subscribed = false;
  private closed = false;
  readonly close: () => Promise<void>;

  constructor(internals: BusImpl) {
    this.channel = rpcReplyChannel(internals.prefix, randomBytes(12).toString('base64url'));
    this.redis = createRedis(internals.redisUrl, {
      role: 'subscriber',
      name: `${internals.prefix}:rpc-replies`,
      logger: internals.logger,
    });
    this.expectSubscription();
    void this.subscribe();
    this.redis.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.deliver(message);
    });
    // A reply published while the connection is down is lost for good (pub/sub keeps nothing): the
    // calls waiting now fail at once with 503 instead of waiting out their deadline.
    this.redis.on('close', () => {
      this.subscribed = false;
      this.settleSubscription(false);
      this.expectSubscription();
      this.failAll('the reply connection to Redis was lost');
    });
    // ioredis re-subscribes by itself (autoResubscribe); subscribing here too tells us when it is done.
    this.redis.on('ready', () => {
      if (!this.subscribed) void this.subscribe();
    });
    this.close = once(async () => {
      this.closed = true;
      this.failAll('message bus is closed');
      await closeWithin(
        () => this.redis.quit().then(() => {}),
        internals.closeTimeoutMs,
        () => this.redis.disconnect(),
      );
      if (this.redis.status !== 'end') this.redis.disconnect();
    });
  }

  /**
   * True once replies can be received (the channel is subscribed), waiting at most `maxWaitMs` while
   * the connection is being made; false at once while it is known down (ioredis waits to reconnect).
   */
  async ready(maxWaitMs: number): Promise<boolean> {
    if (this.subscribed) return true;
    if (this.closed || this.redis.status === 'reconnecting' || this.redis.status === 'end') return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), maxWaitMs);
    });
    const ready = await Promise.race([this.subscription, timeout]);
    clearTimeout(timer);
    return ready;
  }

  /** Waits for the reply to call `id` until `deadline` (epoch ms). */
  expect(id: string, deadline: number): Promise<CallOutcome> {
    return new Promise<CallOutcome>((resolve) => {
      const timer = setTimeout(() => settle({ kind: 'timeout' }), Math.max(1, deadline - Date.now()));
      const settle = (outcome: CallOutcome) => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolve(outcome);
      };
      this.pending.set(id, { settle });
    });
  }

  /** Forgets call `id` (its request could not be sent). */
  forget(id: string): void {
    this.pending.get(id)?.settle({ kind: 'lost', reason: 'request not sent' });
  }

  /** A new wait for the subscription of the connection being made. */
  private expectSubscription(): void {
    this.subscription = new Promise<boolean>((resolve) => {
      this.settleSubscription = resolve;
    });
  }

  private async subscribe(): Promise<void> {
    try {
      await this.redis.subscribe(this.channel);
    } catch {
      return; // the connection dropped first: 'close' ended the wait, the next 'ready' tries again
    }
    if (this.redis.status !== 'ready') return;
    this.subscribed = true;
    this.settleSubscription(true);
  }

  private deliver(message: string): void {
    const parsed = parseReplyMessage(message);
    if (parsed === undefined) return;
    // A late reply (its call timed out) or a stray one: nobody waits for it.
    this.pending.get(parsed.id)?.settle({ kind: 'reply', reply: parsed.reply });
  }

  private failAll(reason: string): void {
    for (const call of [...this.pending.values()]) call.settle({ kind: 'lost', reason });
  }
}

const routers = new WeakMap<BusImpl, ReplyRouter>();

/** The bus's reply router, made (and its connection opened) on the first call. */
export function replyRouter(internals: BusImpl): ReplyRouter {
  let router = routers.get(internals);
  if (!router) {
    internals.assertOpen();
    router = new ReplyRouter(internals);
    routers.set(internals, router);
    // Closed with the connections, after the consumers: a handler still finishing may be waiting
    // for a reply of its own.
    internals.own('connections', router);
  }
  return router;
}
