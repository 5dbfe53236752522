import { formatZodError, ServiceUnavailableError } from '@svc/errors';
import type { Logger } from '@svc/log';
import type { z } from 'zod';
import { type Bus, busInternals } from './bus';
import { type BusCatalog, catalogEntry, type EventNameOf } from './catalog';
import { type Closable, closeWithin, once } from './closable';
import { eventChannel } from './names';
import { createRedis } from './redis';
import { safeParseWith } from './schema';
import { type BusSealer, sealingContext } from './sealing';

/**
 * Typed events over Redis pub/sub: every subscribed replica gets every event (fan-out), unlike a
 * queue where one consumer takes each job. Lossy while a subscriber is disconnected (nothing
 * replays a missed event): consumers also keep a TTL on whatever the events refresh.
 */

/** Handles one event type, given its schema (e.g. `EventHandler<EventCatalog['run.finished']>`). */
export type EventHandler<Schema extends z.ZodType> = (payload: z.output<Schema>) => void | Promise<void>;
/** Handlers by event name, for some of the events of `Events` (a catalog's `events`). */
export type EventHandlers<Events extends BusCatalog['events']> = {
  [N in keyof Events]?: EventHandler<Events[N]>;
};

export interface Subscription extends Closable {
  /** Resolves once Redis confirmed the subscriptions (events published before that are missed). */
  waitUntilReady(): Promise<void>;
}

/** ms: how long a publish waits for the producer's first connection before failing with 503. */
const PUBLISH_CONNECT_WAIT_MS = 2_000;

/**
 * Validates and publishes one event. Returns how many subscribers received it. Throws TypeError for
 * a payload that does not match the catalog (a programming error) and ServiceUnavailableError when
 * Redis is down (the event is lost: publishers log it and rely on consumers' TTLs).
 */
export async function publishEvent<C extends BusCatalog, N extends EventNameOf<C>>(
  bus: Bus<C>,
  name: N,
  payload: z.input<C['events'][N]>,
): Promise<number> {
  const parsed = safeParseWith<C['events'][N]>(eventSchema(bus, name), payload);
  if (!parsed.success) throw new TypeError(`invalid ${name} event: ${formatZodError(parsed.error)}`);
  const internals = busInternals(bus);
  const channel = eventChannel(bus.prefix, name);
  // Sealed like jobs: `run.finished` carries a run's result, and a slow PUBLISH is kept in SLOWLOG.
  const message = JSON.stringify(
    internals.sealer.seal(parsed.data, sealingContext.event(bus.prefix, channel)),
  );
  const redis = await internals.readyProducer(PUBLISH_CONNECT_WAIT_MS);
  try {
    return await redis.publish(channel, message);
  } catch (err) {
    internals.logger.warn(
      { event: name, err: err instanceof Error ? err.message : String(err) },
      'event not published',
    );
    throw new ServiceUnavailableError('message bus is unavailable');
  }
}

/**
 * Subscribes `handlers` on a connection of their own (a connection in subscriber mode can run no
 * other command). Payloads that fail their schema are logged and dropped; a handler that throws is
 * logged and does not stop later events.
 */
export function subscribeEvents<C extends BusCatalog>(
  bus: Bus<C>,
  handlers: NoInfer<EventHandlers<C['events']>>,
): Subscription {
  const internals = busInternals(bus);
  const logger = internals.logger;
  const redis = createRedis(internals.redisUrl, { role: 'subscriber', name: `${bus.prefix}:events`, logger });

  const byChannel = new Map<string, EventNameOf<C>>();
  for (const name of Object.keys(handlers)) {
    if (isEventName(bus, name)) byChannel.set(eventChannel(bus.prefix, name), name);
  }
  const subscribed =
    byChannel.size > 0 ? redis.subscribe(...byChannel.keys()).then(() => {}) : Promise.resolve();
  // Failure here means the connection closed before subscribing; the caller sees it in waitUntilReady().
  subscribed.catch(() => {});

  redis.on('message', (channel: string, message: string) => {
    const name = byChannel.get(channel);
    if (name)
      void deliver(bus, name, handlers, openEvent(internals.sealer, bus.prefix, channel, message), logger);
  });

  const close = once(async () => {
    untrack();
    await closeWithin(
      () => redis.quit().then(() => {}),
      internals.closeTimeoutMs,
      () => redis.disconnect(),
    );
  });
  const untrack = internals.own('consumers', { close });
  return { close, waitUntilReady: () => subscribed };
}

function isEventName<C extends BusCatalog>(bus: Bus<C>, name: string): name is EventNameOf<C> {
  return Object.hasOwn(bus.catalog.events, name);
}

/** The catalog's schema of `name`; TypeError for a name the catalog lacks (a programming error). */
function eventSchema<C extends BusCatalog, N extends EventNameOf<C>>(bus: Bus<C>, name: N): C['events'][N] {
  if (!isEventName(bus, name)) throw new TypeError(`unknown event ${name}`);
  return catalogEntry<C['events'], N>(bus.catalog.events, name);
}

type Opened = { ok: true; payload: unknown } | { ok: false; reason: string };

/** The event's payload, opened; why not when the message is not JSON or does not open. */
function openEvent(sealer: BusSealer, prefix: string, channel: string, message: string): Opened {
  try {
    return { ok: true, payload: sealer.open(JSON.parse(message), sealingContext.event(prefix, channel)) };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

async function deliver<C extends BusCatalog, N extends EventNameOf<C>>(
  bus: Bus<C>,
  name: N,
  handlers: EventHandlers<C['events']>,
  opened: Opened,
  logger: Logger,
): Promise<void> {
  if (!opened.ok) {
    logger.warn({ event: name, err: opened.reason }, 'event dropped: does not open');
    return;
  }
  const parsed = safeParseWith<C['events'][N]>(eventSchema(bus, name), opened.payload);
  if (!parsed.success) {
    logger.warn({ event: name, err: formatZodError(parsed.error) }, 'event dropped: invalid payload');
    return;
  }
  const handler: EventHandler<C['events'][N]> | undefined = handlers[name];
  try {
    await handler?.(parsed.data);
  } catch (err) {
    logger.error({ event: name, err }, 'event handler failed');
  }
}
