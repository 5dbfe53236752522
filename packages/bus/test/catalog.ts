import { z } from 'zod';
import type { BusCatalog, JobDefinition, ServiceHandlers } from '../src';

/**
 * The bus suites' own message catalog: the bus is generic, so its tests hand it a small catalog
 * instead of the platform's (@svc/contracts messageCatalog). Names are the platform's (`system.echo`,
 * `rpc.registry`, …) so the queue names the suites inspect read like production's.
 */

const ping = {
  request: z.object({}),
  response: z.object({ service: z.string(), pid: z.number().int(), uptime_s: z.number().nonnegative() }),
};

const Uuid = z.uuid();
const Slug = z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/);

const SearchQuery = z
  .object({
    q: z.string().trim().min(1).max(200).optional(),
    category: Slug.optional(),
    limit: z.number().int().min(1).max(100).default(20),
  })
  .strict();

const SearchAnswer = z.object({
  ok: z.literal(true),
  capabilities: z.array(z.object({ slug: Slug })),
  count: z.number().int().min(0),
  query: z.object({ q: z.string().nullable(), category: z.string().nullable(), limit: z.number().int() }),
});

const Balance = z.object({
  ok: z.literal(true),
  client_id: Uuid,
  currency: z.literal('USD'),
  balance_usd: z.string(),
  held_usd: z.string(),
  spent_usd: z.string(),
  spend_cap_usd: z.string().nullable(),
  remaining_usd: z.string(),
  period: z.object({ start: z.string(), end: z.string() }),
});

/** Retention as the platform's jobs have it (a finished job is kept long enough to read its result). */
const retention = {
  removeOnComplete: { age: 3_600 /* s */, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3_600 /* s */, count: 10_000 },
} as const;

const jobs = {
  'system.echo': {
    payload: z.object({ message: z.string().max(10_000) }),
    result: z.object({ message: z.string() }),
    // Retried after 0.5–1 s, then 1–2 s, … (the retry test waits for the second attempt).
    options: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 1_000 /* ms */, jitter: 0.5 },
      ...retention,
    },
  },
  'uploads.cleanup': {
    payload: z.object({}),
    result: z.object({
      expired_sessions: z.number().int().min(0),
      deleted_uploads: z.number().int().min(0),
      deleted_artifacts: z.number().int().min(0),
    }),
    options: { attempts: 1, ...retention },
  },
  /** Carries client data: dropped once finished (the sealed-at-rest suite checks it). */
  'capability.pii-redact': {
    payload: z.object({ run_id: Uuid, input: z.object({ text: z.string() }) }),
    result: z.object({ outcome: z.enum(['completed', 'failed', 'cancelled', 'skipped']) }),
    options: { attempts: 3, ...retention },
    dropDataWhenFinished: true,
  },
} as const satisfies Record<string, JobDefinition>;

export const testCatalog = {
  rpc: {
    registry: {
      ping,
      search: { request: SearchQuery, response: SearchAnswer },
      describe: { request: z.object({ slug: Slug }), response: z.object({ slug: Slug }) },
    },
    wallet: { ping, balance: { request: z.object({ client_id: Uuid }), response: Balance } },
    vault: { ping },
  },
  jobs,
  events: {
    'catalog.changed': z.object({ version: z.string(), changed_slugs: z.array(z.string()) }),
  },
} as const satisfies BusCatalog;

export type TestCatalog = typeof testCatalog;
export type TestHandlers<S extends keyof TestCatalog['rpc']> = ServiceHandlers<TestCatalog, S>;
