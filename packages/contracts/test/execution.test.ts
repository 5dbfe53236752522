import { canQuoteAndRun, effectiveRunStatus, MachineRunStatus, RunState } from '../src/index';

describe('effectiveRunStatus (spec §2.1)', () => {
  test.each([
    ['supported', 'supported'],
    ['requires_worker', 'requires_worker'],
    ['plan_only', 'plan_only'],
    ['describe_only', 'describe_only'],
    ['runnable', 'supported'],
  ])('%p -> %p', (raw, effective) => {
    expect(effectiveRunStatus(raw)).toBe(effective);
  });

  test.each([
    undefined,
    null,
    '',
    'unknown',
    'Supported',
    ' supported',
    'RUNNABLE',
    1,
    true,
    {},
    ['supported'],
  ])('missing or unknown %p -> describe_only', (raw) => {
    expect(effectiveRunStatus(raw)).toBe('describe_only');
  });

  test('only supported, requires_worker and plan_only may be quoted or run', () => {
    expect(canQuoteAndRun('supported')).toBe(true);
    expect(canQuoteAndRun('requires_worker')).toBe(true);
    expect(canQuoteAndRun('plan_only')).toBe(true);
    expect(canQuoteAndRun('describe_only')).toBe(false);
    expect(canQuoteAndRun(effectiveRunStatus('bogus'))).toBe(false);
  });
});

test('MachineRunStatus has the five raw values', () => {
  expect(MachineRunStatus.options).toEqual([
    'supported',
    'requires_worker',
    'plan_only',
    'describe_only',
    'runnable',
  ]);
});

test('RunState has the six states of spec §3', () => {
  expect(RunState.options).toEqual(['queued', 'running', 'retrying', 'completed', 'failed', 'cancelled']);
  expect(RunState.safeParse('done').success).toBe(false);
});
