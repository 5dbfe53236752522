import { z } from 'zod';
import type { BusCatalog } from '../src';

const ping = {
  request: z.object({}),
  response: z.object({ service: z.string(), pid: z.number().int(), uptime_s: z.number() }),
};

/**
 * Two services for the deadline tests (src/rpc/deadline.test.ts in memory, deadline.int.test.ts over
 * Redis): `front.relay` calls `back.hang`, as the orchestrator calls the wallet.
 */
export const relayCatalog = {
  rpc: {
    front: { ping, relay: { request: z.object({}), response: z.object({ ok: z.boolean() }) } },
    back: { ping, hang: { request: z.object({}), response: z.object({ ok: z.boolean() }) } },
  },
  jobs: {},
  events: {},
} as const satisfies BusCatalog;
