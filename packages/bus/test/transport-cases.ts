import { InternalError, NotFoundError, PaymentRequiredError, ServiceUnavailableError } from '@svc/errors';
import { z } from 'zod';
import type { BusCatalog, RpcCarrier, ServiceHandlers } from '../src';
import { serviceClient } from '../src';

/**
 * What every RPC transport must do alike (Redis, in-memory): one table of cases, run over Redis by
 * service-client.int.test.ts and in memory by src/rpc/in-memory-transport.test.ts, so a test that
 * runs real handlers in memory sees the errors, shapes and timeouts production sees.
 */

const ping = {
  request: z.object({}),
  response: z.object({ service: z.string(), pid: z.number().int(), uptime_s: z.number().nonnegative() }),
};

const Slug = z.string().regex(/^[a-z0-9-]+$/);

export const parityCatalog = {
  rpc: {
    registry: {
      ping,
      search: {
        request: z
          .object({ q: z.string().min(1).optional(), limit: z.number().int().max(100).default(20) })
          .strict(),
        response: z.object({
          ok: z.literal(true),
          query: z.object({ q: z.string().nullable(), limit: z.number() }),
        }),
      },
      describe: { request: z.object({ slug: Slug }), response: z.object({ slug: Slug }) },
      /** Answers `value` as the handler returns it (the transport's encoding decides what arrives). */
      echo: { request: z.object({ value: z.unknown() }), response: z.object({ value: z.unknown() }) },
      /** Answers `value`; the responder checks it against `{ n: number }` (its input type is open). */
      shaped: {
        request: z.object({ value: z.unknown() }),
        response: z.unknown().pipe(z.object({ n: z.number() })),
      },
      /** Waits `ms` before answering. */
      slow: {
        request: z.object({ ms: z.number().int().min(0) }),
        response: z.object({ waited: z.number() }),
      },
    },
    vault: { ping },
  },
  jobs: {},
  events: {},
} as const satisfies BusCatalog;

export type ParityCatalog = typeof parityCatalog;

/** Handlers whose behaviour each case picks through its request. */
export const registryHandlers: ServiceHandlers<ParityCatalog, 'registry'> = {
  search: async ({ q, limit }) => {
    if (q === 'explode') throw new Error('database exploded: password=hunter2');
    if (q === 'pg-down')
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'P1001' });
    if (q === 'broke') throw new PaymentRequiredError('balance too low: 0.00 USD');
    return { ok: true, query: { q: q ?? null, limit } };
  },
  describe: async ({ slug }) => {
    throw new NotFoundError(`capability ${slug} not found`);
  },
  // `made-here`: an answer of the handler's own making, with a date and an undefined field in it.
  echo: async ({ value }) =>
    value === 'made-here'
      ? { value: { at: new Date('2026-08-12T09:30:00.000Z'), gone: undefined } }
      : { value },
  shaped: async ({ value }) => value,
  slow: async ({ ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { waited: ms };
  },
};

/** How a suite runs the cases: a carrier on which `registry` answers with registryHandlers. */
export interface TransportUnderTest {
  carrier(): RpcCarrier<ParityCatalog>;
  /** Requests the registry's handlers received (the in-memory suite counts them; Redis cannot). */
  handled?(): number;
}

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  );

export function transportCases(under: TransportUnderTest): void {
  const registry = (timeoutMs = 5_000) => serviceClient(under.carrier(), 'registry', { timeoutMs });

  it('round-trips a typed request and answer, schema defaults applied', async () => {
    const answer = await registry().search({ q: 'dns' });
    expect(answer).toEqual({ ok: true, query: { q: 'dns', limit: 20 } });
  });

  it('answers ping itself', async () => {
    const pong = await registry().ping({});
    expect(pong).toMatchObject({ service: 'registry', pid: process.pid });
  });

  it('brings a domain error back as the same AppError class, status and message', async () => {
    const notFound = await errorOf(registry().describe({ slug: 'nothing' }));
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound).toMatchObject({ status: 404, message: 'capability nothing not found' });
    const broke = await errorOf(registry().search({ q: 'broke' }));
    expect(broke).toBeInstanceOf(PaymentRequiredError);
    expect(broke).toMatchObject({ status: 402, message: 'balance too low: 0.00 USD' });
  });

  it('hides an unexpected handler error behind a 500 "internal error"', async () => {
    const error = await errorOf(registry().search({ q: 'explode' }));
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ status: 500, message: 'internal error' });
  });

  it('answers 503 naming the service when its database is unreachable', async () => {
    const error = await errorOf(registry().search({ q: 'pg-down' }));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({
      status: 503,
      message: 'the registry service cannot reach PostgreSQL; try again in a few seconds',
    });
  });

  it('refuses an invalid request with a TypeError before sending it', async () => {
    const before = under.handled?.();
    await expect(registry().search({ limit: 1_000 })).rejects.toThrow(TypeError);
    await expect(registry().describe({ slug: 'Not A Slug' })).rejects.toThrow(
      /invalid registry.describe request/,
    );
    if (before !== undefined) expect(under.handled?.()).toBe(before);
  });

  it('answers 500 when the handler answers a shape its schema refuses', async () => {
    await expect(registry().shaped({ value: { n: 7 } })).resolves.toEqual({ n: 7 });
    const error = await errorOf(registry().shaped({ value: { n: 'seven' } }));
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ status: 500, message: 'internal error' });
  });

  it('carries values as JSON: a date arrives as its ISO text, undefined fields are dropped', async () => {
    const at = new Date('2026-08-12T09:30:00.000Z');
    const answer = await registry().echo({ value: { at, gone: undefined, kept: null } });
    expect(answer).toEqual({ value: { at: '2026-08-12T09:30:00.000Z', kept: null } });
    // Both ways: what the handler answers is carried as JSON too.
    const made = await registry().echo({ value: 'made-here' });
    expect(made).toStrictEqual({ value: { at: '2026-08-12T09:30:00.000Z' } });
  });

  it('fails a request that cannot be encoded with a 500, never a 503', async () => {
    const error = await errorOf(registry().echo({ value: 10n }));
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ status: 500, message: 'could not encode the registry.echo request' });
  });

  it('fails with the 503 of a timeout when the answer comes too late, per method if told', async () => {
    const error = await errorOf(registry(200).slow({ ms: 1_000 }));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ status: 503, message: 'registry service did not answer within 200 ms' });
    const patient = serviceClient(under.carrier(), 'registry', {
      timeoutMs: 200,
      methodTimeoutsMs: { slow: 5_000 },
    });
    await expect(patient.slow({ ms: 400 })).resolves.toEqual({ waited: 400 });
  });

  it('fails with the same 503 when nobody serves the service', async () => {
    const vault = serviceClient(under.carrier(), 'vault', { timeoutMs: 300 });
    const error = await errorOf(vault.ping({}));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ status: 503, message: 'vault service did not answer within 300 ms' });
  });
}
