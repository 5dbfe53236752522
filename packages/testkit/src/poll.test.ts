import { pollUntil } from './poll';

describe('pollUntil', () => {
  it('resolves with the first value that is not undefined, null or false', async () => {
    let probes = 0;
    const found = await pollUntil(() => {
      probes += 1;
      return probes < 3 ? undefined : { probes };
    });
    expect(found).toEqual({ probes: 3 });
    await expect(pollUntil(async () => true)).resolves.toBe(true);
    await expect(pollUntil(() => 0)).resolves.toBe(0); // 0 and '' are values, not "not yet"
  });

  it('times out with what was awaited, the probe count and the detail', async () => {
    const started = Date.now();
    await expect(
      pollUntil(() => false, {
        what: 'the job to finish',
        timeoutMs: 100,
        intervalMs: 10,
        detail: () => 'worker output: none',
      }),
    ).rejects.toThrow(
      /^timed out after 100 ms waiting for the job to finish \(\d+ probes\)\nworker output: none$/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
  });

  it('probes at least once, and a probe that throws ends the wait', async () => {
    let probes = 0;
    await expect(pollUntil(() => ++probes >= 2 || undefined, { timeoutMs: 0 })).rejects.toThrow(
      'timed out after 0 ms waiting for the condition (1 probes)',
    );
    await expect(
      pollUntil(
        () => {
          throw new Error('worker exited');
        },
        { timeoutMs: 10_000 },
      ),
    ).rejects.toThrow('worker exited');
  });
});
