import type { Logger } from '@svc/log';

/**
 * Worker presence: every beat announces this worker for each runtime it serves, with a value for
 * operators and a lifetime of `ttlMs`; a worker that stops beating (dead) lapses on its own. Where
 * and how it is stored is the PresenceStore's business (adapters/worker-presence.ts: Redis keys and
 * one sorted set per runtime that the orchestrator counts).
 */

/** ms: how long a key outlives its last refresh; 3 missed beats in a row mark the worker gone. */
export const HEARTBEAT_TTL_MS = 15_000;
/** ms: refresh period (TTL / 3, so one slow or failed beat does not drop the worker). */
export const HEARTBEAT_INTERVAL_MS = 5_000;
/** ms: how long the first beat waits for the store's connection (see startHeartbeat). */
const CONNECT_WAIT_MS = 5_000;

/** What a heartbeat key holds (JSON), for operators and later schedulers. */
export interface HeartbeatValue {
  worker_id: string;
  runtime: string;
  hostname: string;
  pid: number;
  /** Runs of each capability it serves that it runs at once, by slug (decisions RW4). */
  slots: Readonly<Record<string, number>>;
  /** ISO 8601: when this worker started. */
  started_at: string;
  /** ISO 8601: when this value was written. */
  beat_at: string;
}

/** Where worker presence is kept (Redis in the worker: adapters/worker-presence.ts). */
export interface PresenceStore {
  /** Where the presence of `workerId` for `runtime` is kept: its own key, and the runtime's set. */
  locate(runtime: string, workerId: string): { key: string; runtimeSet: string };
  /** Resolves when the store takes commands, or after `maxWaitMs` (a beat may then fail: logged). */
  waitUntilReady(maxWaitMs: number): Promise<void>;
  /**
   * One beat: each runtime's value stored for `ttlMs`, the worker live in each runtime's set and in
   * the set of each capability it serves (the keys of its values' `slots`) until `beatMs + ttlMs`,
   * members that lapsed before `beatMs` dropped. Rejects when the store is down.
   */
  announce(
    workerId: string,
    beats: readonly { runtime: string; value: HeartbeatValue }[],
    /** Runs this worker holds (claimed, not yet reported), announced until `beatMs + ttlMs`. */
    held: readonly string[],
    beatMs: number,
    ttlMs: number,
  ): Promise<void>;
  /** Removes the worker's values and memberships (a clean shutdown is visible at once). */
  withdraw(workerId: string, runtimes: readonly string[], capabilities: readonly string[]): Promise<void>;
}

export interface HeartbeatOptions {
  presence: PresenceStore;
  logger: Logger;
  workerId: string;
  runtimes: readonly string[];
  hostname: string;
  pid: number;
  /** Runs of each served capability it runs at once, by slug. */
  slots: Readonly<Record<string, number>>;
  ttlMs?: number;
  intervalMs?: number;
  /** ms: how long the first beat waits for the store's connection to come up. Default 5_000. */
  connectWaitMs?: number;
  /** The runs this worker holds now (ActiveRuns.ids), announced with every beat; default none. */
  heldRuns?: () => readonly string[];
  /** Clock (tests); default Date.now. */
  now?: () => number;
}

export interface Heartbeat {
  /** The keys this worker refreshes. */
  readonly keys: readonly string[];
  /** The per-runtime sorted sets this worker is a member of. */
  readonly runtimeSets: readonly string[];
  /** Stops beating and deletes the keys, so a clean shutdown is visible at once (not after the TTL). */
  close(): Promise<void>;
}

/**
 * Writes the keys at once (the returned promise settles after the first beat, so a worker is
 * announced before it reports itself started), then every `intervalMs`. A failed beat (Redis down)
 * is logged and retried on the next tick: the process keeps working its jobs meanwhile.
 */
export async function startHeartbeat(options: HeartbeatOptions): Promise<Heartbeat> {
  const ttlMs = options.ttlMs ?? HEARTBEAT_TTL_MS;
  const intervalMs = options.intervalMs ?? HEARTBEAT_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const { presence, logger, workerId, runtimes } = options;
  if (runtimes.length === 0) throw new Error('a worker heartbeat needs at least one runtime');
  if (intervalMs >= ttlMs)
    throw new Error(`heartbeat interval (${intervalMs} ms) must be below its TTL (${ttlMs} ms)`);

  const startedAt = new Date(now()).toISOString();
  const places = runtimes.map((runtime) => presence.locate(runtime, workerId));
  let failing = false;

  const beat = async (): Promise<void> => {
    const beatMs = now();
    const beatAt = new Date(beatMs).toISOString();
    const beats = runtimes.map((runtime) => ({
      runtime,
      value: {
        worker_id: workerId,
        runtime,
        hostname: options.hostname,
        pid: options.pid,
        slots: options.slots,
        started_at: startedAt,
        beat_at: beatAt,
      },
    }));
    try {
      await presence.announce(workerId, beats, options.heldRuns?.() ?? [], beatMs, ttlMs);
      if (failing) logger.info({ worker_id: workerId }, 'worker heartbeat restored');
      failing = false;
    } catch (err) {
      // Logged once per outage, not once per beat.
      if (!failing) logger.warn({ worker_id: workerId, err: errorMessage(err) }, 'worker heartbeat failed');
      failing = true;
    }
  };

  // The store may fail commands at once until it is connected, so a beat sent right after start-up
  // would always fail: wait for it, boundedly.
  await presence.waitUntilReady(options.connectWaitMs ?? CONNECT_WAIT_MS);
  await beat();
  let inFlight: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    inFlight = beat();
  }, intervalMs);
  // The heartbeat alone must not keep the process alive.
  timer.unref();

  let closing: Promise<void> | undefined;
  return {
    keys: places.map((place) => place.key),
    runtimeSets: places.map((place) => place.runtimeSet),
    close() {
      closing ??= (async () => {
        clearInterval(timer);
        await inFlight;
        try {
          await presence.withdraw(workerId, runtimes, Object.keys(options.slots));
        } catch (err) {
          // Store unreachable: the keys expire and the scores lapse on their own within the TTL.
          logger.warn({ worker_id: workerId, err: errorMessage(err) }, 'worker heartbeat keys not deleted');
        }
      })();
      return closing;
    },
  };
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
