import { memoryLogger } from '@svc/log';
import type { Closable } from './closable';
import { runLifecycle } from './lifecycle';

function recorder(order: string[], name: string, behaviour: 'ok' | 'hang' | 'throw' = 'ok'): Closable {
  return {
    name,
    close: async () => {
      order.push(name);
      if (behaviour === 'hang') await new Promise(() => {});
      if (behaviour === 'throw') throw new Error(`${name} broke`);
    },
  };
}

describe('runLifecycle', () => {
  it('starts, waits for the stop signal, then closes in reverse order and exits 0', async () => {
    const { logger, lines } = memoryLogger();
    const order: string[] = [];
    let stop: (signal: string) => void = () => {};
    const stopped = new Promise<string>((resolve) => {
      stop = resolve;
    });
    const running = runLifecycle(
      {
        name: 'demo',
        logger,
        start: async () => ['redis', 'queues', 'rpc', 'http'].map((name) => recorder(order, name)),
      },
      stopped,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    expect(lines().map((line) => line.msg)).toContain('started');

    stop('SIGTERM');
    await expect(running).resolves.toBe(0);
    expect(order).toEqual(['http', 'rpc', 'queues', 'redis']);
    expect(lines().find((line) => line.msg === 'shutting down')).toMatchObject({ signal: 'SIGTERM' });
  });

  it('bounds a hanging close by the shutdown timeout, still closes the rest, and exits 1', async () => {
    const { logger, lines } = memoryLogger();
    const order: string[] = [];
    const started = Date.now();
    const code = await runLifecycle(
      {
        name: 'demo',
        logger,
        shutdownTimeoutMs: 300,
        start: () => [recorder(order, 'redis'), recorder(order, 'worker', 'hang'), recorder(order, 'http')],
      },
      Promise.resolve('SIGINT'),
    );
    const elapsed = Date.now() - started;
    expect(code).toBe(1);
    expect(order).toEqual(['http', 'worker', 'redis']);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(1_500);
    expect(lines().find((line) => line.msg === 'close timed out')).toMatchObject({ closable: 'worker' });
  });

  it('exits 1 when a close throws, after closing the others', async () => {
    const { logger } = memoryLogger();
    const order: string[] = [];
    const code = await runLifecycle(
      {
        name: 'demo',
        logger,
        start: () => [recorder(order, 'a'), recorder(order, 'b', 'throw'), recorder(order, 'c')],
      },
      Promise.resolve('SIGTERM'),
    );
    expect(code).toBe(1);
    expect(order).toEqual(['c', 'b', 'a']);
  });

  it('exits 1 without waiting for a signal when start fails, and logs why', async () => {
    const { logger, lines } = memoryLogger();
    const never = new Promise<string>(() => {});
    const code = await runLifecycle(
      {
        name: 'demo',
        logger,
        start: async () => {
          throw new Error('DATABASE_URL unreachable');
        },
      },
      never,
    );
    expect(code).toBe(1);
    const fatal = lines().find((line) => line.msg === 'start failed');
    expect(JSON.stringify(fatal)).toContain('DATABASE_URL unreachable');
  });
});
