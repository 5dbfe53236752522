import { ServiceUnavailableError } from '@svc/errors';
import { memoryLogger } from '@svc/log';
import { createBus, enqueueJob, serveRpc, serviceClient } from '../src';
import { testCatalog } from './catalog';
import { busKeys, closedPortUrl, deletePrefix, redisUrl, uniquePrefix } from './helpers';

const prefix = uniquePrefix('bus');
const { logger, lines } = memoryLogger();

afterAll(async () => {
  await deletePrefix(prefix);
});

describe('bus with Redis down', () => {
  it('fails an RPC call fast with 503 when the producer cannot reach Redis, and does not hang', async () => {
    const url = await closedPortUrl();
    const bus = createBus({ catalog: testCatalog, redisUrl: url, prefix, logger, encryptionKeys: busKeys });
    const wallet = serviceClient(bus, 'wallet', { timeoutMs: 5_000 });
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const started = Date.now();
        const error = await wallet.ping({}).catch((err: unknown) => err);
        expect(error).toBeInstanceOf(ServiceUnavailableError);
        expect(error).toMatchObject({ status: 503, message: 'wallet service is unavailable' });
        // Far below the 5 s RPC timeout: the producer has no offline queue.
        expect(Date.now() - started).toBeLessThan(1_500);
      }
      await expect(enqueueJob(bus, 'system.echo', { message: 'x' })).rejects.toBeInstanceOf(
        ServiceUnavailableError,
      );
    } finally {
      const started = Date.now();
      await bus.close();
      expect(Date.now() - started).toBeLessThan(6_000);
    }
    // Connection errors are logged without the URL's credentials, and rate-limited.
    const errors = lines().filter((line) => line.msg === 'redis error');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.length).toBeLessThan(5);
  });

  it('never logs the password of the Redis URL', async () => {
    const url = (await closedPortUrl()).replace('redis://', 'redis://:s3cret-pass@');
    const { logger: quiet, lines: logged } = memoryLogger();
    const bus = createBus({
      catalog: testCatalog,
      redisUrl: url,
      prefix,
      logger: quiet,
      encryptionKeys: busKeys,
    });
    try {
      await serviceClient(bus, 'vault', { timeoutMs: 500 })
        .ping({})
        .catch(() => undefined);
    } finally {
      await bus.close();
    }
    const text = JSON.stringify(logged());
    expect(text).toContain('redis error');
    expect(text).not.toContain('s3cret-pass');
  });
});

describe('bus.close()', () => {
  it('closes responders it started and refuses new work afterwards', async () => {
    const bus = createBus({ catalog: testCatalog, redisUrl, prefix, logger, encryptionKeys: busKeys });
    const server = serveRpc(bus, 'vault', {});
    await server.waitUntilReady();
    const vault = serviceClient(bus, 'vault', { timeoutMs: 5_000 });
    await expect(vault.ping({})).resolves.toMatchObject({ service: 'vault' });

    const started = Date.now();
    await bus.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    await bus.close(); // idempotent

    // A call on a closed bus (e.g. a request that outlived shutdown) answers 503, like Redis down.
    await expect(vault.ping({})).rejects.toBeInstanceOf(ServiceUnavailableError);

    // The closed responder no longer answers: a call from another bus times out.
    const other = createBus({ catalog: testCatalog, redisUrl, prefix, logger, encryptionKeys: busKeys });
    try {
      const late = serviceClient(other, 'vault', { timeoutMs: 300 });
      await expect(late.ping({})).rejects.toBeInstanceOf(ServiceUnavailableError);
    } finally {
      await other.close();
    }
  });
});
