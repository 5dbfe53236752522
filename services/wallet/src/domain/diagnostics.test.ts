import {
  BALANCE_HORIZON_MS,
  basisWindow,
  type ProjectionInput,
  perHourMicros,
  projectSpend,
  sharePct,
  type WindowSpend,
} from './diagnostics';

const USD = 1_000_000n;
const NOW = new Date('2026-09-15T12:00:00.000Z');
const PERIOD_END = new Date('2026-10-01T00:00:00.000Z');

function windows(spent: { '1h'?: bigint; '24h'?: bigint; '7d'?: bigint }): WindowSpend[] {
  return [
    { window: '1h', spentMicros: spent['1h'] ?? 0n, runs: spent['1h'] ? 1 : 0 },
    { window: '24h', spentMicros: spent['24h'] ?? 0n, runs: spent['24h'] ? 1 : 0 },
    { window: '7d', spentMicros: spent['7d'] ?? 0n, runs: spent['7d'] ? 1 : 0 },
  ];
}

function input(parts: Partial<ProjectionInput>): ProjectionInput {
  return {
    now: NOW,
    periodEnd: PERIOD_END,
    windows: windows({}),
    balanceMicros: USD,
    heldMicros: 0n,
    spentMicros: 0n,
    spendCapMicros: null,
    ...parts,
  };
}

describe('perHourMicros', () => {
  it('divides by the window length in hours, rounding down to the micro-USD', () => {
    expect(perHourMicros({ window: '1h', spentMicros: 4_000n, runs: 1 })).toBe(4_000n);
    expect(perHourMicros({ window: '24h', spentMicros: 24_000n, runs: 6 })).toBe(1_000n);
    // 1,000 µUSD over 168 h = 5.95… → 5.
    expect(perHourMicros({ window: '7d', spentMicros: 1_000n, runs: 1 })).toBe(5n);
    expect(perHourMicros({ window: '7d', spentMicros: 0n, runs: 0 })).toBe(0n);
  });
});

describe('basisWindow', () => {
  it('prefers 24h, falls back to 7d, else none (1h is never the basis)', () => {
    expect(basisWindow(windows({ '1h': 1n, '24h': 5n, '7d': 9n }))?.window).toBe('24h');
    expect(basisWindow(windows({ '7d': 9n }))?.window).toBe('7d');
    expect(basisWindow(windows({}))).toBeNull();
  });
});

describe('projectSpend', () => {
  it('projects cap and balance at the 24h rate', () => {
    // 0.024 USD in 24 h = 0.001 USD/h; 0.02 USD left of the cap → 20 h; 0.996 USD available → 996 h.
    const projection = projectSpend(
      input({
        windows: windows({ '1h': 4_000n, '24h': 24_000n, '7d': 30_000n }),
        balanceMicros: USD,
        heldMicros: 4_000n,
        spentMicros: 16_000n,
        spendCapMicros: 40_000n,
      }),
    );
    expect(projection).toEqual({
      basisWindow: '24h',
      perHourMicros: 1_000n,
      capReachedAt: new Date('2026-09-16T08:00:00.000Z'),
      balanceEmptyAt: new Date('2026-10-27T00:00:00.000Z'),
      note:
        'straight line at the 24h rate of 0.001 USD/hour; the 0.04 USD spend cap is reached at ' +
        '2026-09-16T08:00:00.000Z; the balance is used up at 2026-10-27T00:00:00.000Z',
    });
  });

  it('uses the exact 7d spend, not the rounded hourly rate, when 24h has none', () => {
    // 0.001 USD in 7 d; 0.001 USD available → exactly 7 days, although the shown rate rounds to 0.000005.
    const projection = projectSpend(input({ windows: windows({ '7d': 1_000n }), balanceMicros: 1_000n }));
    expect(projection.basisWindow).toBe('7d');
    expect(projection.perHourMicros).toBe(5n);
    expect(projection.balanceEmptyAt).toEqual(new Date('2026-09-22T12:00:00.000Z'));
    expect(projection.capReachedAt).toBeNull();
    expect(projection.note).toContain('no spend cap');
  });

  it('gives null for a cap not reached before the period ends and a balance lasting over 365 days', () => {
    const projection = projectSpend(
      input({
        windows: windows({ '24h': 24_000n }),
        balanceMicros: 10_000n * USD,
        spendCapMicros: 100n * USD,
      }),
    );
    expect(projection.capReachedAt).toBeNull();
    expect(projection.balanceEmptyAt).toBeNull();
    expect(projection.note).toBe(
      'straight line at the 24h rate of 0.001 USD/hour; the 100.00 USD spend cap is not reached before ' +
        'the period ends at 2026-10-01T00:00:00.000Z; the balance lasts more than 365 days',
    );
  });

  it('a point exactly at the period end or beyond the horizon is null; just inside is a date', () => {
    // 1,000 µUSD per hour; the period ends 372 h after NOW.
    const atEnd = projectSpend(input({ windows: windows({ '24h': 24_000n }), spendCapMicros: 372_000n }));
    expect(atEnd.capReachedAt).toBeNull();
    const before = projectSpend(input({ windows: windows({ '24h': 24_000n }), spendCapMicros: 371_999n }));
    expect(before.capReachedAt).not.toBeNull();
    const hours = BigInt(BALANCE_HORIZON_MS / 3_600_000);
    const horizon = projectSpend(
      input({ windows: windows({ '24h': 24_000n }), balanceMicros: hours * 1_000n }),
    );
    expect(horizon.balanceEmptyAt).toEqual(new Date(NOW.getTime() + BALANCE_HORIZON_MS));
    const beyond = projectSpend(
      input({ windows: windows({ '24h': 24_000n }), balanceMicros: hours * 1_000n + 1n }),
    );
    expect(beyond.balanceEmptyAt).toBeNull();
  });

  it('says "already" and answers now when the cap or the balance is used up', () => {
    const projection = projectSpend(
      input({
        windows: windows({ '24h': 24_000n }),
        balanceMicros: 10_000n,
        heldMicros: 10_000n,
        spentMicros: 50_000n,
        spendCapMicros: 40_000n,
      }),
    );
    expect(projection.capReachedAt).toEqual(NOW);
    expect(projection.balanceEmptyAt).toEqual(NOW);
    expect(projection.note).toContain('the 0.04 USD spend cap is already reached');
    expect(projection.note).toContain('the balance is already used up');
  });

  it('projects nothing without spend in the last 7 days', () => {
    expect(projectSpend(input({ spendCapMicros: USD }))).toEqual({
      basisWindow: null,
      perHourMicros: 0n,
      capReachedAt: null,
      balanceEmptyAt: null,
      note: 'no charged runs in the last 7 days: nothing to project from',
    });
  });
});

describe('sharePct', () => {
  it('rounds half up to one decimal', () => {
    expect(sharePct(1n, 3n)).toBe(33.3);
    expect(sharePct(2n, 3n)).toBe(66.7);
    expect(sharePct(1n, 16n)).toBe(6.3);
    expect(sharePct(5n, 5n)).toBe(100);
  });

  it('is 0 when nothing was spent', () => {
    expect(sharePct(0n, 0n)).toBe(0);
  });
});
