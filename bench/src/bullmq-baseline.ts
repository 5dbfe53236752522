// The queue baseline of the run-path benches (issue 15): a bare BullMQ round trip, add → worker →
// `job.waitUntilFinished`, at the bench's connections as closed loops, with a worker that does no
// work. It is what one hop through Redis costs on this machine at that moment, so a run's figures
// read as a ratio that holds across machines and loads. Queue, worker and QueueEvents live in this
// process (as the reference figure was measured, ../shared/NOTES.md "BullMQ and Redis"),
// under a prefix of their own, deleted afterwards.
import { randomBytes } from 'node:crypto';
import { deleteKeysWithPrefix } from '@svc/testkit';
import { type ConnectionOptions, Queue, QueueEvents, Worker } from 'bullmq';
import type { LoadOptions } from './load';
import { percentile } from './quote-run-load';

export interface RoundTripResult {
  /** Round trips completed per second of the measured run. */
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  roundTrips: number;
  /** Round trips that threw (their job failed or the wait timed out). */
  errors: number;
  concurrency: number;
}

const QUEUE = 'bench-round-trip';
// ms: a round trip without an answer by then counts as an error.
const WAIT_TIMEOUT_MS = 30_000;

/** host/port/password/db of a redis:// URL, as BullMQ's ioredis options. */
export function redisConnection(redisUrl: string): ConnectionOptions {
  const url = new URL(redisUrl);
  const db = url.pathname.replace('/', '');
  return {
    host: url.hostname,
    port: url.port === '' ? 6379 : Number(url.port),
    ...(url.password === '' ? {} : { password: decodeURIComponent(url.password) }),
    ...(url.username === '' ? {} : { username: decodeURIComponent(url.username) }),
    ...(db === '' ? {} : { db: Number(db) }),
    // BullMQ's workers and QueueEvents block: they need this (BullMQ documentation).
    maxRetriesPerRequest: null,
  };
}

async function loops(
  queue: Queue,
  events: QueueEvents,
  concurrency: number,
  seconds: number,
): Promise<{ ms: number[]; errors: number; seconds: number }> {
  const ms: number[] = [];
  let errors = 0;
  const started = performance.now();
  const endAt = started + seconds * 1_000;
  const loop = async (): Promise<void> => {
    while (performance.now() < endAt) {
      const t0 = performance.now();
      try {
        const job = await queue.add('echo', { at: t0 });
        await job.waitUntilFinished(events, WAIT_TIMEOUT_MS);
        ms.push(performance.now() - t0);
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { ms, errors, seconds: (performance.now() - started) / 1_000 };
}

/**
 * Warm-up (discarded), then `durationSeconds` of `connections` closed loops. The worker's
 * concurrency equals the loops', so every added job finds a free slot (the queue, not the worker's
 * slots, is measured). Completed jobs are kept a short while: `waitUntilFinished` needs them
 * (NOTES: removeOnComplete true breaks it).
 */
export async function measureBullmqRoundTrip(
  redisUrl: string,
  options: LoadOptions,
): Promise<RoundTripResult> {
  const prefix = `bench-rt-${randomBytes(4).toString('hex')}`;
  const connection = redisConnection(redisUrl);
  const queue = new Queue(QUEUE, {
    connection,
    prefix,
    defaultJobOptions: { removeOnComplete: { age: 60 }, removeOnFail: { age: 60 } },
  });
  const events = new QueueEvents(QUEUE, { connection, prefix });
  const worker = new Worker(QUEUE, async (job) => ({ echoed: job.id }), {
    connection,
    prefix,
    concurrency: options.connections,
  });
  // Each pending add and wait holds a listener on these for its duration: `connections` at once is
  // the design here, not a leak (Node warns from 11).
  queue.setMaxListeners(options.connections + 10);
  events.setMaxListeners(options.connections + 10);
  try {
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady(), worker.waitUntilReady()]);
    if (options.warmupSeconds > 0) await loops(queue, events, options.connections, options.warmupSeconds);
    const run = await loops(queue, events, options.connections, options.durationSeconds);
    const sorted = [...run.ms].sort((a, b) => a - b);
    return {
      perSecond: sorted.length / run.seconds,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      roundTrips: sorted.length,
      errors: run.errors,
      concurrency: options.connections,
    };
  } finally {
    await Promise.allSettled([worker.close(), events.close(), queue.close()]);
    await deleteKeysWithPrefix(redisUrl, prefix).catch(() => undefined);
  }
}

/** One line for a report: `bare BullMQ round trip … N/s, p50 … p99 …`. */
export function describeRoundTrip(result: RoundTripResult): string {
  return (
    `bare BullMQ round trip (add → worker → waitUntilFinished, ${result.concurrency} concurrent, one process): ` +
    `${result.perSecond.toFixed(0)}/s, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms` +
    (result.errors > 0 ? `, ${result.errors} errors` : '')
  );
}
