import { memoryLogger } from '@svc/log';
import { startDispatcher } from './dispatcher';

// Fake timers: the schedule is checked step by step, never against the wall clock.
describe('startDispatcher', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sweeps at start-up, then intervalMs after each sweep ends; close stops it', async () => {
    let sweeps = 0;
    const dispatcher = startDispatcher({
      intervalMs: 5_000,
      logger: memoryLogger().logger,
      sweep: async () => {
        sweeps += 1;
      },
    });
    await jest.advanceTimersByTimeAsync(0);
    expect(sweeps).toBe(1);
    await jest.advanceTimersByTimeAsync(4_999);
    expect(sweeps).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(sweeps).toBe(2);

    await dispatcher.close();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(sweeps).toBe(2);
  });

  it('keeps sweeping after a failed sweep, and logs it', async () => {
    const { logger, text } = memoryLogger();
    let sweeps = 0;
    const dispatcher = startDispatcher({
      intervalMs: 1_000,
      logger,
      sweep: async () => {
        sweeps += 1;
        if (sweeps === 1) throw new Error('database down');
      },
    });
    await jest.advanceTimersByTimeAsync(1_000);
    expect(sweeps).toBe(2);
    expect(text()).toContain('dispatcher: sweep failed');
    await dispatcher.close();
  });

  it('close waits for the sweep in progress', async () => {
    let release: () => void = () => {};
    let finished = false;
    const dispatcher = startDispatcher({
      intervalMs: 1_000,
      logger: memoryLogger().logger,
      sweep: () =>
        new Promise<void>((resolve) => {
          release = () => {
            finished = true;
            resolve();
          };
        }),
    });
    const closing = dispatcher.close();
    let closed = false;
    void closing.then(() => {
      closed = true;
    });
    await jest.advanceTimersByTimeAsync(0);
    expect(closed).toBe(false);
    release();
    await closing;
    expect(finished).toBe(true);
  });
});
