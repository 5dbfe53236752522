import { randomUUID } from 'node:crypto';
import { ListRunsQuery, ListRunsResponse, type RunState } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { NotFoundError, ValidationError } from '@svc/errors';
import { createTestDatabase, type TestDatabase } from '@svc/testkit';
import { listRuns, runCounts, runTimeline } from './list-runs';

// The run lists on a real, migrated PostgreSQL: runs written directly at pinned instants, several
// sharing one created_at (the id breaks the tie), and another client's runs between them.

let database: TestDatabase;
let prisma: PrismaClient;
const clientId = randomUUID();
const otherClientId = randomUUID();
/** The client's runs as the list must give them: created_at desc, then id desc. */
let expected: Array<{ id: string; createdAt: Date; status: RunState; slug: string }> = [];

const SAME_INSTANT = '2026-09-10T10:00:00.000Z';
const FIXTURE: Array<[at: string, status: RunState, slug: string]> = [
  ['2026-09-01T08:00:00.000Z', 'completed', 'pii-redact'],
  ['2026-09-02T08:00:00.000Z', 'failed', 'html-to-pdf'],
  [SAME_INSTANT, 'queued', 'html-to-pdf'],
  [SAME_INSTANT, 'completed', 'pii-redact'],
  [SAME_INSTANT, 'cancelled', 'pii-redact'],
  [SAME_INSTANT, 'running', 'crt'],
  ['2026-09-11T08:00:00.000Z', 'completed', 'crt'],
  ['2026-09-12T08:00:00.000Z', 'retrying', 'pii-redact'],
  ['2026-09-13T08:00:00.000Z', 'completed', 'html-to-pdf'],
  ['2026-09-14T08:00:00.000Z', 'queued', 'pii-redact'],
];

function runRow(owner: string, at: string, status: RunState, slug: string) {
  const id = randomUUID();
  return {
    id,
    publicId: id,
    clientId: owner,
    slug,
    status,
    clientType: 'api',
    requestHash: 'a'.repeat(64),
    input: {},
    createdAt: new Date(at),
  };
}

beforeAll(async () => {
  database = await createTestDatabase('orch_list_runs');
  prisma = database.prisma;
  const mine = FIXTURE.map(([at, status, slug]) => runRow(clientId, at, status, slug));
  // Another client's runs at the same instants (and one at the tie), which must never appear.
  const theirs = FIXTURE.map(([at, status, slug]) => runRow(otherClientId, at, status, slug));
  await prisma.run.createMany({ data: [...mine, ...theirs] });
  expected = mine
    .map(({ id, createdAt, status, slug }) => ({ id, createdAt, status, slug }))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
});

afterAll(() => database?.drop());

/** Every page of a listing, following next_cursor until null. */
async function allPages(query: Record<string, unknown>): Promise<ListRunsResponse[]> {
  const pages: ListRunsResponse[] = [];
  let cursor: string | undefined;
  do {
    const page = await listRuns(prisma, clientId, ListRunsQuery.parse({ ...query, cursor }));
    pages.push(ListRunsResponse.parse(page));
    cursor = page.next_cursor ?? undefined;
    expect(pages.length).toBeLessThanOrEqual(FIXTURE.length + 1);
  } while (cursor !== undefined);
  return pages;
}

describe('listRuns', () => {
  it('pages cover every run of the client exactly once, newest first, ties by id', async () => {
    const pages = await allPages({ limit: 3 });
    expect(pages.map((page) => page.runs.length)).toEqual([3, 3, 3, 1]);
    const ids = pages.flatMap((page) => page.runs.map((run) => run.run_id));
    expect(ids).toEqual(expected.map((run) => run.id));
    expect(new Set(ids).size).toBe(FIXTURE.length);
  });

  it('a page that ends exactly at the last run says so (next_cursor null)', async () => {
    const pages = await allPages({ limit: 5 });
    expect(pages.map((page) => [page.runs.length, page.next_cursor === null])).toEqual([
      [5, false],
      [5, true],
    ]);
  });

  it('shows the summary fields of each run', async () => {
    const page = await listRuns(prisma, clientId, ListRunsQuery.parse({ limit: 1 }));
    expect(page.runs[0]).toEqual({
      run_id: expected[0]?.id,
      status: 'queued',
      slug: 'pii-redact',
      client_type: 'api',
      created_at: '2026-09-14T08:00:00.000Z',
      updated_at: expect.any(String),
      started_at: null,
      finished_at: null,
      attempts: 0,
      price_usd: '0.00',
      cancel_requested_at: null,
    });
  });

  it('filters by state, capability and created range ([from, to)), and pages within the filter', async () => {
    const byFilter = async (query: Record<string, unknown>) =>
      (await allPages({ limit: 2, ...query })).flatMap((page) => page.runs.map((run) => run.run_id));
    const expectWhere = (keep: (run: (typeof expected)[number]) => boolean) =>
      expected.filter(keep).map((run) => run.id);

    expect(await byFilter({ state: 'completed' })).toEqual(expectWhere((run) => run.status === 'completed'));
    expect(await byFilter({ capability: 'pii-redact' })).toEqual(
      expectWhere((run) => run.slug === 'pii-redact'),
    );
    expect(await byFilter({ state: 'completed', capability: 'crt' })).toEqual(
      expectWhere((run) => run.status === 'completed' && run.slug === 'crt'),
    );
    const from = new Date(SAME_INSTANT);
    const to = new Date('2026-09-13T08:00:00.000Z');
    expect(await byFilter({ created_from: SAME_INSTANT, created_to: to.toISOString() })).toEqual(
      expectWhere((run) => run.createdAt >= from && run.createdAt < to),
    );
    expect(await byFilter({ state: 'failed', capability: 'crt' })).toEqual([]);
  });

  it('never shows another client any of these runs', async () => {
    const page = await listRuns(prisma, randomUUID(), ListRunsQuery.parse({}));
    expect(page).toEqual({ ok: true, runs: [], next_cursor: null });
    const theirs = await listRuns(prisma, otherClientId, ListRunsQuery.parse({ limit: 100 }));
    const mine = new Set(expected.map((run) => run.id));
    expect(theirs.runs).toHaveLength(FIXTURE.length);
    expect(theirs.runs.some((run) => mine.has(run.run_id))).toBe(false);
  });

  it('refuses a forged cursor and an empty range with 422', async () => {
    const forged = Buffer.from('12.not-a-run').toString('base64url');
    await expect(listRuns(prisma, clientId, ListRunsQuery.parse({ cursor: forged }))).rejects.toThrow(
      ValidationError,
    );
    await expect(
      listRuns(
        prisma,
        clientId,
        ListRunsQuery.parse({ created_from: SAME_INSTANT, created_to: '2026-09-01T00:00:00Z' }),
      ),
    ).rejects.toThrow(ValidationError);
  });
});

describe('runCounts', () => {
  it('counts the client runs per state, every state present', async () => {
    expect(await runCounts(prisma, clientId)).toEqual({
      counts: { queued: 2, running: 1, retrying: 1, completed: 4, failed: 1, cancelled: 1 },
      total: 10,
    });
    expect(await runCounts(prisma, clientId, '2026-09-12T00:00:00.000Z')).toEqual({
      counts: { queued: 1, running: 0, retrying: 1, completed: 1, failed: 0, cancelled: 0 },
      total: 3,
    });
    expect((await runCounts(prisma, randomUUID())).total).toBe(0);
  });
});

describe('runTimeline', () => {
  it("gives the owner the run's history and anyone else the 404 of an unknown run", async () => {
    const run = expected.find((row) => row.status === 'queued');
    if (!run) throw new Error('fixture has a queued run');
    const timeline = await runTimeline(prisma, clientId, run.id);
    expect(timeline).toMatchObject({ run_id: run.id, status: 'queued', attempts: 0, dispatches: 0 });
    expect(timeline.events.map((event) => event.event)).toEqual(['recorded']);
    await expect(runTimeline(prisma, otherClientId, run.id)).rejects.toThrow(NotFoundError);
    await expect(runTimeline(prisma, otherClientId, run.id)).rejects.toThrow(`unknown run: ${run.id}`);
  });
});
