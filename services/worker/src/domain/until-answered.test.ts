import { ServiceUnavailableError } from '@svc/errors';
import { untilAnswered } from './until-answered';

const QUICK = { firstDelayMs: 1, maxDelayMs: 4, giveUpAfterMs: 60_000 };

/** A call that fails `failures` times (503), then answers `answer`. */
function flaky<T>(failures: number, answer: T) {
  let calls = 0;
  return {
    calls: () => calls,
    call: async () => {
      calls += 1;
      if (calls <= failures) throw new ServiceUnavailableError('orchestrator service is unavailable');
      return answer;
    },
  };
}

describe('untilAnswered', () => {
  it('asks again until the call answers, telling onRetry of each failed try', async () => {
    const target = flaky(4, { applied: true });
    const retries: number[] = [];
    await expect(untilAnswered(target.call, QUICK, (_err, tries) => retries.push(tries))).resolves.toEqual({
      applied: true,
    });
    expect(target.calls()).toBe(5);
    expect(retries).toEqual([1, 2, 3, 4]);
  });

  it('throws the last error once no new try fits in the bound', async () => {
    const target = flaky(Number.POSITIVE_INFINITY, 'never');
    const err = await untilAnswered(target.call, { ...QUICK, giveUpAfterMs: 20 }, () => undefined).catch(
      (caught: unknown) => caught,
    );
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect(target.calls()).toBeGreaterThan(1);
  });

  it('does not repeat a request that does not match its schema (TypeError: a bug, not an outage)', async () => {
    let calls = 0;
    const call = async () => {
      calls += 1;
      throw new TypeError('invalid orchestrator.reportRun request');
    };
    await expect(untilAnswered(call, QUICK, () => undefined)).rejects.toBeInstanceOf(TypeError);
    expect(calls).toBe(1);
  });
});
