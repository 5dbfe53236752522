import { memoryLogger } from '@svc/log';
import { pollUntil } from '../../testkit/src/poll';
import { type ReadinessPresence, startReadinessHeartbeat } from './readiness-heartbeat';

// The heartbeat's decisions against an in-memory presence (the Redis one is tested in
// packages/bus/test/service-presence.int.test.ts); intervals of milliseconds, no timing asserted.

function recordingPresence(intervalMs = 10) {
  const calls: string[] = [];
  let failing = false;
  const presence: ReadinessPresence = {
    intervalMs,
    report: async (ready) => {
      if (failing) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      calls.push(ready ? 'ready' : 'not ready');
    },
    withdraw: async () => {
      calls.push('withdraw');
    },
  };
  return {
    presence,
    calls,
    setFailing: (value: boolean) => {
      failing = value;
    },
  };
}

describe('startReadinessHeartbeat', () => {
  it('reports ready while the checks pass, not ready while one fails, and withdraws on stop', async () => {
    const { logger, lines } = memoryLogger();
    const rec = recordingPresence();
    let postgresUp = true;
    const heartbeat = await startReadinessHeartbeat({
      service: 'uploads',
      checks: {
        postgres: async () => {
          if (!postgresUp) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        },
      },
      checkTimeoutMs: 100,
      presence: rec.presence,
      logger,
    });
    // Reported before start-up goes on.
    expect(rec.calls).toEqual(['ready']);

    postgresUp = false;
    await pollUntil(() => rec.calls.at(-1) === 'not ready');
    postgresUp = true;
    await pollUntil(() => rec.calls.at(-1) === 'ready');

    await heartbeat.stop();
    expect(rec.calls.at(-1)).toBe('withdraw');
    const count = rec.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rec.calls).toHaveLength(count);
    // Transitions are logged, not every beat.
    const messages = lines().map((line) => line.msg);
    expect(messages.filter((m) => typeof m === 'string' && m.startsWith('not ready'))).toHaveLength(1);
    expect(messages.filter((m) => m === 'ready: reported to the platform')).toHaveLength(2);
  });

  it('keeps beating through failed reports (Redis down), logging the outage once', async () => {
    const { logger, lines } = memoryLogger();
    const rec = recordingPresence();
    rec.setFailing(true);
    const heartbeat = await startReadinessHeartbeat({
      service: 'vault',
      checks: {},
      checkTimeoutMs: 100,
      presence: rec.presence,
      logger,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    rec.setFailing(false);
    await pollUntil(() => rec.calls.includes('ready'));
    await heartbeat.stop();
    const messages = lines().map((line) => line.msg);
    expect(messages.filter((m) => m === 'readiness report failed; retrying')).toHaveLength(1);
    expect(messages).toContain('readiness report restored');
  });

  it('beats faster while not ready, so a recovered instance is ready again long before its interval', async () => {
    const { logger } = memoryLogger();
    // An interval far beyond the poll's bound: only the faster recovery beat can report in time.
    const rec = recordingPresence(600_000);
    let postgresUp = false;
    const heartbeat = await startReadinessHeartbeat({
      service: 'wallet',
      checks: {
        postgres: async () => {
          if (!postgresUp) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        },
      },
      checkTimeoutMs: 100,
      presence: rec.presence,
      logger,
    });
    try {
      expect(rec.calls).toEqual(['not ready']);
      postgresUp = true;
      await pollUntil(() => rec.calls.at(-1) === 'ready', { timeoutMs: 10_000 });
    } finally {
      await heartbeat.stop();
    }
  });
});
