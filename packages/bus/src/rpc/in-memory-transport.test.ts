import { ConflictError, InternalError, ServiceUnavailableError } from '@svc/errors';
import {
  type ParityCatalog,
  parityCatalog,
  registryHandlers,
  transportCases,
} from '../../test/transport-cases';
import { serviceClient } from '../service-client';
import { createInMemoryRpc, type InMemoryRpc } from './in-memory-transport';
import type { ServiceHandlers } from './server';

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  );

/** The registry's handlers, counting the requests that reach them. */
function counted(): { handlers: ServiceHandlers<ParityCatalog, 'registry'>; count: () => number } {
  let count = 0;
  const handlers: ServiceHandlers<ParityCatalog, 'registry'> = {
    search: (request, context) => {
      count += 1;
      return registryHandlers.search(request, context);
    },
    describe: (request, context) => {
      count += 1;
      return registryHandlers.describe(request, context);
    },
    echo: registryHandlers.echo,
    shaped: registryHandlers.shaped,
    slow: registryHandlers.slow,
  };
  return { handlers, count: () => count };
}

describe('serviceClient over the in-memory transport', () => {
  const { handlers, count } = counted();
  const rpc = createInMemoryRpc(parityCatalog);
  rpc.serve('registry', handlers);
  transportCases({ carrier: () => rpc, handled: count });
});

describe('in-memory transport: fault injection and calls', () => {
  let rpc: InMemoryRpc<ParityCatalog>;
  const registry = () => serviceClient(rpc, 'registry', { timeoutMs: 1_000 });

  beforeEach(() => {
    rpc = createInMemoryRpc(parityCatalog);
    rpc.serve('registry', registryHandlers);
  });

  it('fails every call of a service that is down with the 503 of a timeout, until it is up', async () => {
    rpc.down('registry');
    const error = await errorOf(registry().search({}));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ status: 503, message: 'registry service did not answer within 1000 ms' });
    await expect(registry().ping({})).rejects.toThrow('registry service did not answer within 1000 ms');
    rpc.up('registry');
    await expect(registry().search({ q: 'dns' })).resolves.toEqual({
      ok: true,
      query: { q: 'dns', limit: 20 },
    });
  });

  it('fails the next call only (of one method when told), errors mapped as a handler throwing them', async () => {
    rpc.failNext('registry', new ConflictError('quote already used'), 'describe');
    await expect(registry().search({})).resolves.toMatchObject({ ok: true });
    const conflict = await errorOf(registry().describe({ slug: 'crt' }));
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict).toMatchObject({ status: 409, message: 'quote already used' });
    await expect(registry().describe({ slug: 'crt' })).rejects.toMatchObject({ status: 404 });

    rpc.failNext('registry', new Error('socket hang up: secret'));
    const hidden = await errorOf(registry().search({}));
    expect(hidden).toBeInstanceOf(InternalError);
    expect(hidden).toMatchObject({ message: 'internal error' });
    await expect(registry().search({})).resolves.toMatchObject({ ok: true });
  });

  it('clears every fault at once: services up, planned failures dropped', async () => {
    rpc.down('registry');
    rpc.failNext('registry', new ConflictError('planned'));
    rpc.clearFaults();
    await expect(registry().search({})).resolves.toMatchObject({ ok: true });
    await expect(registry().search({})).resolves.toMatchObject({ ok: true });
  });

  it('hands the caller an unchecked answer with replyNext: 503 when its schema refuses it', async () => {
    rpc.replyNext('registry', { data: { ok: true, query: 'not an object' } }, 'search');
    const error = await errorOf(registry().search({}));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ message: 'registry service is unavailable' });
    rpc.replyNext('registry', { data: { ok: true, query: { q: 'planted', limit: 1 } } });
    await expect(registry().search({})).resolves.toEqual({ ok: true, query: { q: 'planted', limit: 1 } });
  });

  it('makes a planned answer from the request when told: e.g. the real answer with one field changed', async () => {
    rpc.replyNext('registry', {
      from: async (request) => ({
        ...(await registry().search({})),
        query: { q: JSON.stringify(request), limit: 1 },
      }),
    });
    await expect(registry().search({ q: 'dns' })).resolves.toEqual({
      ok: true,
      query: { q: '{"q":"dns","limit":20}', limit: 1 },
    });
  });

  it('records every call with its request as sent (defaults applied), in order', async () => {
    await registry().search({ q: 'dns' });
    await errorOf(registry().describe({ slug: 'crt' }));
    expect(rpc.calls()).toEqual([
      { service: 'registry', method: 'search', request: { q: 'dns', limit: 20 } },
      { service: 'registry', method: 'describe', request: { slug: 'crt' } },
    ]);
    expect(rpc.calls('registry', 'describe')).toHaveLength(1);
    rpc.clearCalls();
    expect(rpc.calls()).toEqual([]);
  });

  it('refuses a service its catalog does not have', () => {
    const unknown: string = 'ledger';
    // @ts-expect-error: not a service of the catalog
    expect(() => rpc.down(unknown)).toThrow('unknown RPC service ledger');
    // @ts-expect-error: not a service of the catalog
    expect(() => rpc.failNext(unknown, new Error('x'))).toThrow('unknown RPC service ledger');
    // @ts-expect-error: not a service of the catalog
    expect(() => serviceClient(rpc, unknown, { timeoutMs: 1 })).toThrow('unknown RPC service ledger');
  });
});
