// Issue 15 item 8, "scale checked, not assumed": one CPU-bound capability's jobs fed straight into
// its queue, consumed by one real worker process (services/worker) and then by two, no gateway in
// the measured path. The capability is csv-profile on a generated CSV (CSV_BYTES, read from object
// storage and profiled in JavaScript: CPU per job, a small result). One real upload + quote + run
// makes the template (its stored input and resolved file); each measured job's run is then recorded
// in orchestrator.runs as a dispatched run would be (one INSERT…SELECT), so the worker's claim and
// its report go through the orchestrator and PostgreSQL as in production, and the bench adds the
// jobs itself (the bus's enqueueJob, sealed as the orchestrator seals them) and times until every
// run is terminal. Target: two worker processes ≥ 1.7× one. The CPU time of each process and the
// machine's busy share are printed beside it: on a shared machine they say whether the second
// process had a core. (pii-redact was tried first: its result is its whole input, 370 KB at the
// largest, and the orchestrator spent 21 ms of CPU per job on the report against the worker's 50.)
import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { type Bus, createBus, enqueueJob } from '@svc/bus';
import { type JobPayloadInput, jobCatalog, type MessageCatalog, messageCatalog } from '@svc/capabilities';
import { UploadSessionResponse } from '@svc/contracts';
import { createLogger } from '@svc/log';
import { type StackReplica, type TestApiKey, type TestStack, testBusEncryptionKeys } from '@svc/testkit';
import type { Client } from 'pg';
import { formatColumns } from './columns';
import { type CpuWindow, startCpuWindow } from './cpu-usage';
import { connectRunsDatabase } from './crt-run-stats';
import type { LoadOptions } from './load';
import { ratioLine } from './report';
import { startBenchStack } from './stack-start';
import { announcedWorkers, slotsOf } from './worker-heartbeats';

const SLUG = 'csv-profile';
const JOB = 'capability.csv-profile' as const;
type CsvJob = JobPayloadInput<typeof JOB>;
/** Bytes of the CSV every job profiles. */
const CSV_BYTES = 2_000_000;
const WORKER_COUNTS = [1, 2] as const;
// ms between two looks at the runs' states.
const POLL_MS = 100;
// ms: a phase whose runs are not all terminal by then is reported as cut off.
const PHASE_TIMEOUT_MS = 600_000;

interface ScalePhase {
  workers: number;
  concurrency: (number | null)[];
  jobs: number;
  completed: number;
  /** s from the first enqueue until the last run was terminal. */
  wallSeconds: number;
  /** s from the first run's started_at to the last run's finished_at (the workers' own phase). */
  workSeconds: number | null;
  /** ms, p50 of finished_at − started_at. */
  jobP50Ms: number | null;
  load: string;
  /** CPU used during the measured batch (worker processes, orchestrator, machine). */
  cpu: CpuWindow;
}

/** A CSV of about `bytes` bytes: integer, decimal, boolean, date and string columns. */
function csvOf(bytes: number): Buffer {
  const lines = ['id,price,active,day,name,email'];
  let size = lines[0]?.length ?? 0;
  for (let id = 1; size < bytes; id += 1) {
    const day = String((id % 28) + 1).padStart(2, '0');
    const line = `${id},${(id * 1.25).toFixed(2)},${id % 2 === 0},2026-01-${day},Customer ${id % 997},c${id % 5003}@example.com`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

async function post(stack: TestStack, key: TestApiKey, path: string, json: unknown, headers = {}) {
  return stack.fetch(path, { method: 'POST', apiKey: key.apiKey, json, headers });
}

/**
 * One real csv-profile run through the platform (upload session, PUT, quote, run), completed: the
 * template job (its stored input and resolved file) every measured job copies.
 */
async function templateJob(stack: TestStack, db: Client, key: TestApiKey): Promise<CsvJob> {
  const csv = csvOf(CSV_BYTES);
  const created = await post(stack, key, `/api/capabilities/${SLUG}/upload-session`, {
    input: { filename: 'scale.csv', content_type: 'text/csv', size_bytes: csv.length },
  });
  if (created.status !== 201)
    throw new Error(`scale: upload session ${created.status}: ${created.text.slice(0, 300)}`);
  const session = UploadSessionResponse.parse(created.json);
  const put = await fetch(`${stack.gatewayUrl}${new URL(session.upload_url).pathname}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${session.upload_token}`, 'content-type': 'text/csv' },
    // Node Buffers sit on an ArrayBuffer (never shared): the DOM BodyInit type (pulled in by preact's JSX types) wants that said.
    body: csv as Uint8Array<ArrayBuffer>,
  });
  if (put.status !== 200) throw new Error(`scale: PUT ${put.status}: ${(await put.text()).slice(0, 300)}`);
  const input = { upload_id: session.upload_id };
  const quote = await post(stack, key, `/api/capabilities/${SLUG}/quote`, { input });
  const quoteId: unknown = Reflect.get(Reflect.get(Object(quote.json), 'quote') ?? {}, 'quote_id');
  if (quote.status !== 200 || typeof quoteId !== 'string') {
    throw new Error(`scale: quote ${quote.status}: ${quote.text.slice(0, 300)}`);
  }
  const run = await post(
    stack,
    key,
    `/api/capabilities/${SLUG}/run`,
    { input, quote_id: quoteId },
    { 'idempotency-key': 'bench-scale-template' },
  );
  const runId: unknown = Reflect.get(Object(run.json), 'run_id');
  if ((run.status !== 202 && run.status !== 200) || typeof runId !== 'string') {
    throw new Error(`scale: run ${run.status}: ${run.text.slice(0, 300)}`);
  }
  if (!(await waitTerminal(db, [runId], PHASE_TIMEOUT_MS)))
    throw new Error('scale: the template run did not end');
  const { rows } = await db.query<{ status: string; input: unknown; files: unknown }>(
    'SELECT status::text AS status, input, files FROM orchestrator.runs WHERE id = $1::uuid',
    [runId],
  );
  const row = rows[0];
  if (row?.status !== 'completed') throw new Error(`scale: the template run ended ${row?.status}`);
  return jobCatalog[JOB].payload.parse({ run_id: runId, input: row.input, files: row.files });
}

/** Whether runs carry the issue-15 hand-over columns (job_id: only that job may run the run). */
async function hasJobIdColumn(db: Client): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM information_schema.columns
      WHERE table_schema = 'orchestrator' AND table_name = 'runs' AND column_name = 'job_id'`,
  );
  return (rows[0]?.n ?? 0) > 0;
}

/**
 * `count` queued runs of `clientId` recorded as handed over (dispatched_at now, and with issue 15's
 * columns dispatches 1 and job_id `run-<id>-1`), free (price 0: nothing to settle), in one
 * statement. Returns each run's id and the BullMQ job id the worker must see.
 */
async function recordRuns(
  db: Client,
  clientId: string,
  count: number,
  template: CsvJob,
  withJobId: boolean,
): Promise<{ runId: string; jobId: string }[]> {
  const handOver = withJobId ? ', dispatches, job_id' : '';
  const handOverValues = withJobId ? `, 1, 'run-' || g.id || '-1'` : '';
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO orchestrator.runs
       (id, public_id, client_id, slug, status, client_type, request_hash, input, files, price_micros, updated_at,
        dispatched_at${handOver})
     SELECT g.id, g.id, $1::uuid, $2, 'queued', 'api', md5(g.id::text), $3::jsonb, $4::jsonb, 0, now(),
            now()${handOverValues}
       FROM (SELECT gen_random_uuid() AS id FROM generate_series(1, $5::int)) g
     RETURNING id::text`,
    [clientId, SLUG, JSON.stringify(template.input), JSON.stringify(template.files ?? null), count],
  );
  return rows.map(({ id }) => ({ runId: id, jobId: withJobId ? `run-${id}-1` : `run-${id}` }));
}

/** Waits until every run of `runIds` is terminal; false on timeout. */
async function waitTerminal(db: Client, runIds: readonly string[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ open: number }>(
      `SELECT count(*)::int AS open FROM orchestrator.runs
        WHERE id = ANY($1::uuid[]) AND status NOT IN ('completed', 'failed', 'cancelled')`,
      [runIds],
    );
    if ((rows[0]?.open ?? 0) === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Records `count` runs, adds their jobs, waits for them: the batch's wall time in s. */
async function feed(
  db: Client,
  bus: Bus<MessageCatalog>,
  clientId: string,
  template: CsvJob,
  count: number,
  withJobId: boolean,
): Promise<{ runIds: string[]; wallSeconds: number; finished: boolean }> {
  const runs = await recordRuns(db, clientId, count, template, withJobId);
  const started = performance.now();
  const add = ({ runId, jobId }: { runId: string; jobId: string }) =>
    enqueueJob(bus, JOB, { ...template, run_id: runId }, { jobId });
  // The first alone: it connects the producer, which the others then find ready (a burst of adds
  // before that would each wait on the connection's events).
  const [first, ...rest] = runs;
  if (first) await add(first);
  await Promise.all(rest.map(add));
  const runIds = runs.map((r) => r.runId);
  const finished = await waitTerminal(db, runIds, PHASE_TIMEOUT_MS);
  return { runIds, wallSeconds: (performance.now() - started) / 1_000, finished };
}

async function phaseFigures(
  db: Client,
  runIds: readonly string[],
): Promise<{ completed: number; workSeconds: number | null; jobP50Ms: number | null }> {
  const { rows } = await db.query<{ completed: number; work_s: number | null; job_ms: number | null }>(
    `SELECT count(*) FILTER (WHERE status = 'completed')::int AS completed,
            extract(epoch FROM max(finished_at) - min(started_at))::float8 AS work_s,
            percentile_cont(0.5) WITHIN GROUP
              (ORDER BY (extract(epoch FROM finished_at - started_at) * 1000)::float8) AS job_ms
       FROM orchestrator.runs WHERE id = ANY($1::uuid[])`,
    [runIds],
  );
  const row = rows[0];
  return { completed: row?.completed ?? 0, workSeconds: row?.work_s ?? null, jobP50Ms: row?.job_ms ?? null };
}

function loadNow(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}

async function phase(
  stack: TestStack,
  replicas: readonly StackReplica[],
  db: Client,
  bus: Bus<MessageCatalog>,
  template: CsvJob,
  workers: number,
  jobs: number,
  withJobId: boolean,
): Promise<ScalePhase> {
  const announced = await announcedWorkers(stack.redisUrl, stack.prefix);
  if (announced.length !== workers) {
    throw new Error(`expected ${workers} worker heartbeat(s) before measuring, found ${announced.length}`);
  }
  const clientId = randomUUID();
  // Warm-up (discarded): JIT of the scanner in every worker process, pools.
  await feed(
    db,
    bus,
    clientId,
    template,
    2 * workers * Math.max(1, (announced[0] && slotsOf(announced[0], SLUG)) ?? 1),
    withJobId,
  );
  const loadBefore = loadNow();
  const pids: Record<string, number | undefined> = {
    orchestrator: stack.pid('orchestrator'),
    'worker 1': stack.pid('worker'),
  };
  replicas.forEach((replica, i) => {
    pids[`worker ${i + 2}`] = replica.pid;
  });
  const window = startCpuWindow(pids);
  const batch = await feed(db, bus, clientId, template, jobs, withJobId);
  const cpu = window.end();
  if (!batch.finished)
    console.warn(`[bench scale] ${workers} worker(s): runs still open after ${PHASE_TIMEOUT_MS} ms`);
  const figures = await phaseFigures(db, batch.runIds);
  return {
    workers,
    concurrency: announced.map((w) => slotsOf(w, SLUG)),
    jobs,
    wallSeconds: batch.wallSeconds,
    ...figures,
    load: `${loadBefore} → ${loadNow()}`,
    cpu,
  };
}

function jobsEnv(): number {
  const text = process.env.BENCH_SCALE_JOBS;
  const value = text === undefined || text === '' ? 60 : Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`BENCH_SCALE_JOBS must be a whole number ≥ 1, got "${text}"`);
  return value;
}

/** CPU s of all worker processes in the window (null when any is unreadable). */
function workerCpu(cpu: CpuWindow): number | null {
  const values = Object.entries(cpu.processes)
    .filter(([name]) => name.startsWith('worker'))
    .map(([, value]) => value);
  return values.some((v) => v === null) ? null : values.reduce<number>((sum, v) => sum + (v ?? 0), 0);
}

function perJob(p: ScalePhase, seconds: number | null): string {
  return seconds === null || p.completed === 0 ? '-' : ((seconds * 1_000) / p.completed).toFixed(0);
}

/** Cores the worker processes kept busy on average over the batch (CPU s ÷ wall s). */
function coresUsed(p: ScalePhase): string {
  const cpu = workerCpu(p.cpu);
  return cpu === null || p.wallSeconds <= 0 ? '-' : (cpu / p.wallSeconds).toFixed(2);
}

function report(phases: readonly ScalePhase[]): string {
  const perSecond = (p: ScalePhase, seconds: number | null) =>
    seconds === null || seconds <= 0 ? Number.NaN : p.completed / seconds;
  const rows = phases.map((p) => [
    String(p.workers),
    p.concurrency.map((c) => String(c ?? '?')).join('/'),
    `${p.completed}/${p.jobs}`,
    p.wallSeconds.toFixed(1),
    perSecond(p, p.wallSeconds).toFixed(1),
    p.workSeconds === null ? '-' : p.workSeconds.toFixed(1),
    perSecond(p, p.workSeconds).toFixed(1),
    p.jobP50Ms === null ? '-' : p.jobP50Ms.toFixed(0),
    perJob(p, workerCpu(p.cpu)),
    perJob(p, p.cpu.processes.orchestrator ?? null),
    coresUsed(p),
    p.cpu.machineBusy === null ? '-' : `${(p.cpu.machineBusy * 100).toFixed(0)}%`,
    p.load,
  ]);
  const [one, two] = phases;
  const lines = [
    `\nscale: ${SLUG} jobs (a ${(CSV_BYTES / 1_000_000).toFixed(0)} MB CSV each, from object storage) added straight to ` +
      `${JOB}'s queue, runs recorded in SQL first; real worker processes (services/worker); no gateway.`,
    formatColumns(
      [
        'workers',
        'concurrency',
        'completed',
        'wall s',
        'jobs/s (wall)',
        'work s',
        'jobs/s (work)',
        'job p50 ms',
        'worker CPU ms/job',
        'orchestrator CPU ms/job',
        'worker cores used',
        'machine busy',
        'load avg 1/5/15 before → after',
      ],
      rows,
    ),
    'wall = first enqueue → last run terminal (bench clock); work = first started_at → last finished_at',
    '(the CPU-bound phase, from the runs); job = finished_at − started_at of one run;',
    'worker / orchestrator CPU ms/job = CPU time (/proc) of all worker processes / the orchestrator during',
    'the batch ÷ completed jobs; worker cores used = their CPU s ÷ wall s (2 processes on 2 free cores: ≈ 2);',
    "machine busy = share of all cores busy meanwhile (everyone's work): near 100% with worker cores used",
    'well below the worker count means the processes waited for a core, whatever the code does.',
  ];
  if (one && two) {
    lines.push(
      ratioLine(
        '2 workers ÷ 1 worker, jobs/s (work)',
        perSecond(two, two.workSeconds),
        perSecond(one, one.workSeconds),
        {
          atLeast: 1.7,
        },
      ),
      ratioLine(
        '2 workers ÷ 1 worker, jobs/s (wall)',
        perSecond(two, two.wallSeconds),
        perSecond(one, one.wallSeconds),
      ),
    );
  }
  return lines.join('\n');
}

export async function benchScale(_options: LoadOptions): Promise<void> {
  const jobs = jobsEnv();
  let stack: TestStack | undefined;
  let db: Client | undefined;
  let bus: Bus<MessageCatalog> | undefined;
  const replicas: StackReplica[] = [];
  try {
    stack = await startBenchStack({
      services: ['registry', 'wallet', 'orchestrator', 'uploads', 'worker', 'gateway'],
    });
    db = await connectRunsDatabase(stack.databaseUrl);
    bus = createBus({
      catalog: messageCatalog,
      redisUrl: stack.redisUrl,
      prefix: stack.prefix,
      logger: createLogger({ service: 'bench-scale', level: 'silent' }),
      encryptionKeys: testBusEncryptionKeys(),
    });
    const key = await stack.createApiKey({
      scopes: ['uploads:write', 'capabilities:quote', 'capabilities:run'],
      clientName: 'bench-scale',
      balanceUsd: '1000',
    });
    const template = await templateJob(stack, db, key);
    const withJobId = await hasJobIdColumn(db);
    const phases: ScalePhase[] = [];
    for (const workers of WORKER_COUNTS) {
      while (replicas.length + 1 < workers) replicas.push(await stack.startReplica('worker'));
      phases.push(await phase(stack, replicas, db, bus, template, workers, jobs, withJobId));
    }
    console.log(report(phases));
    console.log(`cores: ${availableParallelism()}; other processes share them (see load avg).`);
  } finally {
    await bus?.close().catch(() => undefined);
    await db?.end().catch(() => undefined);
    await stack?.close();
  }
}
