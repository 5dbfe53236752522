import { type SettlementFacts, settlementFor } from './settlement';

const RUN_ID = '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d';
const CLIENT_ID = '6f1c1f2e-3d4b-4a5c-8d9e-0f1a2b3c4d5e';

function facts(parts: Partial<SettlementFacts>): SettlementFacts {
  return {
    id: RUN_ID,
    clientId: CLIENT_ID,
    status: 'completed',
    priceMicros: 4_000n,
    settledAt: null,
    error: null,
    ...parts,
  };
}

describe('settlementFor (docs/decisions.md L-D)', () => {
  it('captures a completed paid run', () => {
    expect(settlementFor(facts({}))).toEqual({
      run_id: RUN_ID,
      client_id: CLIENT_ID,
      outcome: 'capture',
      reason: 'run completed',
    });
  });

  it('releases a failed (naming its error code) or cancelled paid run', () => {
    const error = { code: 'render_failed', message: 'no' };
    expect(settlementFor(facts({ status: 'failed', error }))).toMatchObject({
      outcome: 'release',
      reason: 'run failed: render_failed',
    });
    expect(settlementFor(facts({ status: 'failed', error: 'garbage' }))).toMatchObject({
      outcome: 'release',
      reason: 'run failed: internal',
    });
    expect(settlementFor(facts({ status: 'cancelled' }))).toMatchObject({
      outcome: 'release',
      reason: 'run cancelled',
    });
  });

  it('has nothing to do for free runs, runs not final yet, or runs the wallet already settled', () => {
    expect(settlementFor(facts({ priceMicros: 0n }))).toBeUndefined();
    for (const status of ['queued', 'running', 'retrying'] as const) {
      expect(settlementFor(facts({ status }))).toBeUndefined();
    }
    expect(settlementFor(facts({ settledAt: new Date() }))).toBeUndefined();
  });
});
