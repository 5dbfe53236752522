import { closeWithin, once } from './closable';

describe('closeWithin', () => {
  it('resolves true when the close finishes in time, without forcing', async () => {
    let forced = false;
    const inTime = await closeWithin(
      async () => {},
      1_000,
      () => {
        forced = true;
      },
    );
    expect(inTime).toBe(true);
    expect(forced).toBe(false);
  });

  it('gives up after the timeout, forces, and resolves false', async () => {
    let forced = false;
    const started = Date.now();
    const inTime = await closeWithin(
      () => new Promise(() => {}),
      100,
      () => {
        forced = true;
      },
    );
    expect(inTime).toBe(false);
    expect(forced).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('resolves false (never rejects) when close throws', async () => {
    await expect(
      closeWithin(async () => {
        throw new Error('boom');
      }, 1_000),
    ).resolves.toBe(false);
  });
});

describe('once', () => {
  it('runs the close function once however often it is called', async () => {
    let calls = 0;
    const close = once(async () => {
      calls += 1;
    });
    await Promise.all([close(), close()]);
    await close();
    expect(calls).toBe(1);
  });
});
