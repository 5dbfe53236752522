import { z } from 'zod';
import { Uuid } from '../common';
import { RunState } from '../execution';
import { RunRecord } from '../run';

/**
 * Every event, by name: published on Redis pub/sub and delivered to every subscribed replica.
 *
 * Pub/sub is lossy: a subscriber that is disconnected (Redis restart, network blip) misses what was
 * published meanwhile, and nothing replays it. Consumers therefore treat events as hints to refresh
 * early and must also expire what they cache on a TTL of their own. Payloads evolve additively
 * (new fields optional): replicas of different versions receive the same message.
 */
export const eventCatalog = {
  /** The registry's catalog changed: caches of capability lists and descriptions are stale. */
  'catalog.changed': z
    .object({
      /** Opaque version of the catalog after the change (e.g. a hash of all manifests). */
      version: z.string(),
      /** Slugs added, changed or removed; empty when unknown (treat as "everything"). */
      changed_slugs: z.array(z.string()),
    })
    .describe("The registry's catalog changed: cached capability lists and descriptions are stale."),
  /**
   * A run reached a terminal state (completed, failed, cancelled) and the orchestrator has stored
   * it. A hint for whoever waits on the run (the gateway's synchronous crt answer); waiters also
   * poll, since pub/sub can lose this message.
   * `run` is the stored record as `orchestrator.getRun` returns it, with `client_id` its owner: a
   * waiter of that client may settle with it instead of reloading the run. Both optional (older
   * publishers, and records too large to publish, omit them): without them a waiter reloads the run.
   */
  'run.finished': z
    .object({
      run_id: Uuid,
      status: RunState,
      /** The owner of the run: a record is only ever handed to waiters of this client. */
      client_id: Uuid.optional(),
      run: RunRecord.optional(),
    })
    .describe(
      'A run reached a final state and is stored: wakes its waiters (who also poll: pub/sub is lossy).',
    ),
  /**
   * Cancellation of a running run was requested (spec §4.10). Every worker checks it against the
   * jobs it runs and aborts that job's AbortSignal; the handler stops cooperatively and the worker
   * reports `cancelled`. Lossy like every event: a job not yet started is refused by its claim
   * (`orchestrator.claimAttempt` reads `cancel_requested_at` in the database).
   */
  'run.cancel-requested': z
    .object({ run_id: Uuid })
    .describe(
      "Cancel of a running run requested: workers abort that job's AbortSignal (a later claim of the run is refused).",
    ),
  /**
   * An API key was revoked (`pnpm admin revoke-key`), published after the database update: every
   * gateway drops the keys it has verified, so the key is refused at once; a lost event is covered
   * by the gateways' API_KEY_CACHE_TTL_MS. The key id only, never the key or its hash.
   */
  'apikey.revoked': z
    .object({ key_id: z.string().min(1).max(64) })
    .describe('An API key was revoked: gateways drop verified keys (their age bound covers a lost event).'),
} as const satisfies Record<string, z.ZodType>;

export type EventCatalog = typeof eventCatalog;
export type EventName = keyof EventCatalog;
/** What a publisher passes (schema input). */
export type EventPayloadInput<N extends EventName> = z.input<EventCatalog[N]>;
/** What a subscriber receives (parsed). */
export type EventPayload<N extends EventName> = z.output<EventCatalog[N]>;

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(eventCatalog, name);
}
