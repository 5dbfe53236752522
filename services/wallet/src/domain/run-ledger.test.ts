import { summarizeRunLines } from './run-ledger';

const line = (kind: 'hold' | 'capture' | 'release', amountMicros: bigint) => ({ kind, amountMicros });

describe('summarizeRunLines', () => {
  it('an open hold is held, not charged, not settled', () => {
    expect(summarizeRunLines([line('hold', -4_000n)])).toEqual({
      heldMicros: 4_000n,
      chargedMicros: 0n,
      settled: false,
    });
  });

  it('a captured hold is charged and settled, nothing held', () => {
    expect(summarizeRunLines([line('hold', -4_000n), line('capture', -4_000n)])).toEqual({
      heldMicros: 0n,
      chargedMicros: 4_000n,
      settled: true,
    });
  });

  it('a released hold costs nothing and is settled', () => {
    expect(summarizeRunLines([line('hold', -4_000n), line('release', 4_000n)])).toEqual({
      heldMicros: 0n,
      chargedMicros: 0n,
      settled: true,
    });
  });

  it('a free or unknown run (no lines) is settled at zero', () => {
    expect(summarizeRunLines([])).toEqual({ heldMicros: 0n, chargedMicros: 0n, settled: true });
  });
});
