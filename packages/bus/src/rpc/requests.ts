import type { Redis } from 'ioredis';
import type { BusImpl } from '../bus';
import { createBatcher } from './batch';

/**
 * Requests a service's list may hold: far more than a healthy service ever leaves waiting. When no
 * responder consumes it, the oldest (long past their deadline) are trimmed instead of piling up.
 */
export const MAX_QUEUED_REQUESTS = 10_000;
/**
 * ms: a request list outlives its newest request's deadline by this much, then Redis drops it: a
 * service with no responder at all leaves no list behind. (A list being consumed is deleted by Redis
 * as soon as it is empty.)
 */
const LIST_TTL_MARGIN_MS = 60_000;

interface Push {
  listKey: string;
  text: string;
  timeoutMs: number;
  done: (err?: unknown) => void;
}

const senders = new WeakMap<BusImpl, (push: Push) => void>();

/**
 * LPUSHes one request on `listKey` through the producer. The requests of one event-loop turn go
 * out as one pipeline, one LPUSH per list (with all its requests, oldest first) and one PEXPIRE.
 * Rejects when Redis refused or the connection failed (the request may not be queued).
 */
export function pushRequest(
  internals: BusImpl,
  listKey: string,
  text: string,
  timeoutMs: number,
): Promise<void> {
  let send = senders.get(internals);
  if (!send) {
    send = createBatcher<Push>((batch) => flush(internals.redis, batch));
    senders.set(internals, send);
  }
  const push = send;
  return new Promise<void>((resolve, reject) => {
    push({ listKey, text, timeoutMs, done: (err) => (err === undefined ? resolve() : reject(err)) });
  });
}

function flush(producer: Redis, batch: Push[]): void {
  const byList = new Map<string, Push[]>();
  for (const push of batch) {
    const group = byList.get(push.listKey);
    if (group) group.push(push);
    else byList.set(push.listKey, [push]);
  }
  const groups = [...byList.entries()];
  const pipeline = producer.pipeline();
  for (const [listKey, pushes] of groups) {
    pipeline.lpush(listKey, ...pushes.map((push) => push.text));
    const ttl = Math.max(...pushes.map((push) => push.timeoutMs)) + LIST_TTL_MARGIN_MS;
    pipeline.pexpire(listKey, ttl);
  }
  pipeline.exec().then(
    (results) => {
      groups.forEach(([listKey, pushes], index) => {
        const [pushError, length] = results?.[2 * index] ?? [new Error('no reply to LPUSH')];
        const expireError = results?.[2 * index + 1]?.[0];
        const err = pushError ?? expireError ?? undefined;
        for (const push of pushes) push.done(err);
        if (err === undefined && typeof length === 'number' && length > MAX_QUEUED_REQUESTS) {
          producer.ltrim(listKey, 0, MAX_QUEUED_REQUESTS - 1).catch(() => {});
        }
      });
    },
    (err: unknown) => {
      for (const push of batch) push.done(err ?? new Error('pipeline failed'));
    },
  );
}
