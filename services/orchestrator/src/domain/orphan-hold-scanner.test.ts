import { type OpenHold, type OpenHoldCursor, OrphanHoldScanner } from './settlement-sweep';

/** Open holds h0…h(n-1), a minute apart, as the wallet would page them. */
function wallet(count: number) {
  const holds: OpenHold[] = Array.from({ length: count }, (_, i) => ({
    run_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    client_id: '00000000-0000-4000-8000-0000000000aa',
    created_at: new Date(Date.UTC(2026, 10, 21, 12, i)).toISOString(),
  }));
  const calls: Array<OpenHoldCursor | undefined> = [];
  const list = async (_olderThan: Date, limit: number, after: OpenHoldCursor | undefined) => {
    calls.push(after);
    const start = after === undefined ? 0 : holds.findIndex((hold) => hold.run_id === after.run_id) + 1;
    return holds.slice(start, start + limit);
  };
  return { holds, calls, list };
}

describe('OrphanHoldScanner', () => {
  const olderThan = new Date('2026-11-21T13:00:00.000Z');

  it('reads one page per call and starts again from the oldest after a short page', async () => {
    const { holds, calls, list } = wallet(5);
    const scanner = new OrphanHoldScanner(list);
    expect((await scanner.nextPage(olderThan, 2)).map((h) => h.run_id)).toEqual([
      holds[0]?.run_id,
      holds[1]?.run_id,
    ]);
    expect((await scanner.nextPage(olderThan, 2)).map((h) => h.run_id)).toEqual([
      holds[2]?.run_id,
      holds[3]?.run_id,
    ]);
    expect((await scanner.nextPage(olderThan, 2)).map((h) => h.run_id)).toEqual([holds[4]?.run_id]);
    // The short page ended the round: the next call starts over.
    expect((await scanner.nextPage(olderThan, 2)).map((h) => h.run_id)).toEqual([
      holds[0]?.run_id,
      holds[1]?.run_id,
    ]);
    expect(calls.map((cursor) => cursor?.run_id)).toEqual([
      undefined,
      holds[1]?.run_id,
      holds[3]?.run_id,
      undefined,
    ]);
  });

  it('starts over after an empty page', async () => {
    const { calls, list } = wallet(2);
    const scanner = new OrphanHoldScanner(list);
    await scanner.nextPage(olderThan, 2);
    expect(await scanner.nextPage(olderThan, 2)).toEqual([]);
    await scanner.nextPage(olderThan, 2);
    expect(calls.map((cursor) => cursor === undefined)).toEqual([true, false, true]);
  });
});
