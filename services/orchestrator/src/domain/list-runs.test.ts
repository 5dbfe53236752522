import { RunTimelineResponse } from '@svc/contracts';
import { ValidationError } from '@svc/errors';
import { createdRange, decodeRunCursor, encodeRunCursor, runTimelineOf } from './list-runs';

const RUN_ID = '0b7e5c1a-3f2d-4e6b-9a8c-1d2e3f4a5b6c';

describe('run list cursor', () => {
  it('round-trips a position and is opaque base64url', () => {
    const position = { createdAt: new Date('2026-09-15T12:00:00.123Z'), publicId: RUN_ID };
    const cursor = encodeRunCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeRunCursor(cursor)).toEqual(position);
  });

  it.each([
    ['not base64url of a position', 'abc'],
    ['a position without a run id', Buffer.from('1757937600123.').toString('base64url')],
    ['a run id that is not a UUID', Buffer.from('1757937600123.run-1').toString('base64url')],
    [
      'padding or another spelling of the same bytes',
      `${encodeRunCursor({ createdAt: new Date(0), publicId: RUN_ID })}=`,
    ],
  ])('refuses %s with 422', (_label, cursor) => {
    expect(() => decodeRunCursor(cursor)).toThrow(ValidationError);
    expect(() => decodeRunCursor(cursor)).toThrow('cursor: must be a next_cursor of a previous page');
  });
});

describe('createdRange', () => {
  it('accepts open and closed ranges, refuses one that ends at or before its start', () => {
    expect(createdRange({})).toEqual({});
    expect(createdRange({ created_from: '2026-09-01T00:00:00Z' })).toEqual({
      from: new Date('2026-09-01T00:00:00Z'),
    });
    expect(() =>
      createdRange({ created_from: '2026-09-01T00:00:00Z', created_to: '2026-09-01T00:00:00Z' }),
    ).toThrow(ValidationError);
  });
});

describe('runTimelineOf', () => {
  const base = {
    publicId: RUN_ID,
    status: 'queued' as const,
    attempts: 0,
    dispatches: 0,
    priceMicros: 0n,
    createdAt: new Date('2026-09-15T12:00:00.000Z'),
    dispatchedAt: null,
    startedAt: null,
    cancelRequestedAt: null,
    finishedAt: null,
    settledAt: null,
    input: { text: 'Call me at +49 30 1234567' },
  };

  it('a queued run not yet handed over: recorded only', () => {
    expect(runTimelineOf(base).events).toEqual([
      {
        event: 'recorded',
        at: '2026-09-15T12:00:00.000Z',
        state: 'queued',
        description: 'Recorded and queued.',
      },
    ]);
  });

  it('a paid run retried once, completed and settled: every event in time order', () => {
    const timeline = runTimelineOf({
      ...base,
      status: 'completed',
      attempts: 2,
      dispatches: 2,
      priceMicros: 4_000n,
      // The second hand-over (the retry) is later than the first start: sorted by time.
      dispatchedAt: new Date('2026-09-15T12:00:05.000Z'),
      startedAt: new Date('2026-09-15T12:00:06.000Z'),
      finishedAt: new Date('2026-09-15T12:00:09.000Z'),
      settledAt: new Date('2026-09-15T12:00:09.000Z'),
    });
    expect(RunTimelineResponse.parse(timeline)).toEqual(timeline);
    expect(timeline.events.map((event) => [event.event, event.state])).toEqual([
      ['recorded', 'queued'],
      ['dispatched', null],
      ['started', 'running'],
      ['finished', 'completed'],
      ['settled', null],
    ]);
    expect(timeline.events[2]?.description).toBe('Started (attempt 2).');
    expect(timeline.events[4]?.description).toBe('Settled: 0.004 USD charged.');
    expect(timeline).toMatchObject({ status: 'completed', attempts: 2, dispatches: 2 });
    expect(timeline.input).toEqual({ text: 'Call me at +49 30 1234567' });
  });

  it('a cancelled running run shows the request before the end; a free run has no settled event', () => {
    const timeline = runTimelineOf({
      ...base,
      status: 'cancelled',
      attempts: 1,
      dispatches: 1,
      dispatchedAt: new Date('2026-09-15T12:00:00.000Z'),
      startedAt: new Date('2026-09-15T12:00:01.000Z'),
      cancelRequestedAt: new Date('2026-09-15T12:00:02.000Z'),
      finishedAt: new Date('2026-09-15T12:00:03.000Z'),
      settledAt: new Date('2026-09-15T12:00:03.000Z'),
    });
    expect(timeline.events.map((event) => event.event)).toEqual([
      'recorded',
      'dispatched',
      'started',
      'cancel_requested',
      'finished',
    ]);
  });
});
