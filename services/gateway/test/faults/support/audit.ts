import {
  type LedgerTotals,
  ledgerTotals,
  type PrismaClient,
  recomputeLedgerTotals,
  spendPeriod,
} from '@svc/db';
import { pollUntil, type RunExecutions } from '@svc/testkit';
import type { LoadRun } from './load';

/**
 * The audit after each fault (issue 15 "Targets"), in SQL on the stack's database: every run the
 * load asked for is found (by its id when an answer gave one, else by its Idempotency-Key), becomes
 * terminal and settled within a minute, completed exactly once, charged exactly its price, with no
 * hold left open, and each client's ledger totals equal what its ledger lines add up to.
 */

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);
// ms: "every acknowledged run terminal within a minute of recovery".
export const SETTLE_WITHIN_MS = 60_000;
// ms between two audit queries while waiting.
const POLL_INTERVAL_MS = 500;

interface RunRow {
  id: string;
  client_id: string;
  idempotency_key: string | null;
  status: string;
  price_micros: bigint;
  attempts: number;
  error: unknown;
  hold_pending: boolean;
  dispatches: number;
  job_id: string | null;
  settled_at: Date | null;
}

interface LedgerRow {
  run_id: string;
  kind: string;
  lines: bigint;
  amount_micros: bigint;
}

/** Why a run failed the audit, with the figures that show it. */
export interface AuditFinding {
  runId: string;
  problem: string;
}

export interface AuditReport {
  /** Runs the load asked for that were recorded (acknowledged or found by key). */
  runs: number;
  acknowledged: number;
  completed: number;
  /** Acknowledged (2xx with a run id) but no row: lost. */
  lost: string[];
  findings: AuditFinding[];
  /** Runs executed again after the worker that first finished them was killed (allowed, counted). */
  reExecutedAfterKill: string[];
  /** Per client: |ledger totals - recomputed| + |captures - prices of completed runs| in µUSD. */
  driftMicros: bigint;
  /** Holds still open on these clients' runs. */
  openHolds: number;
  /** ms from the start of the audit until every run was terminal and settled (or the wait gave up). */
  settleMs: number;
}

async function loadRuns(prisma: PrismaClient, clientIds: readonly string[]): Promise<RunRow[]> {
  return prisma.$queryRaw<RunRow[]>`
    SELECT id::text, client_id::text, idempotency_key, status::text, price_micros, attempts, error,
      hold_pending, dispatches, job_id, settled_at
    FROM orchestrator.runs WHERE client_id = ANY(${[...clientIds]}::uuid[])`;
}

async function loadLedger(prisma: PrismaClient, clientIds: readonly string[]): Promise<LedgerRow[]> {
  return prisma.$queryRaw<LedgerRow[]>`
    SELECT run_id::text, kind::text, COUNT(*)::bigint AS lines, COALESCE(SUM(amount_micros), 0)::bigint AS amount_micros
    FROM wallet.ledger_entries
    WHERE client_id = ANY(${[...clientIds]}::uuid[]) AND run_id IS NOT NULL
    GROUP BY run_id, kind`;
}

async function openHoldRunIds(prisma: PrismaClient, clientIds: readonly string[]): Promise<Set<string>> {
  const rows = await prisma.$queryRaw<Array<{ run_id: string }>>`
    SELECT run_id::text FROM wallet.open_holds WHERE client_id = ANY(${[...clientIds]}::uuid[])`;
  return new Set(rows.map((row) => row.run_id));
}

/** Terminal, and its money settled: a capture (completed) or a release (otherwise) line. */
function isFinished(run: RunRow, ledger: readonly LedgerRow[], open: Set<string>): boolean {
  if (!TERMINAL.has(run.status)) return false;
  if (run.price_micros === 0n) return true;
  const settled = ledger.some(
    (line) => line.run_id === run.id && (line.kind === 'capture' || line.kind === 'release'),
  );
  return settled && !open.has(run.id);
}

function totalsDrift(kept: LedgerTotals, recomputed: LedgerTotals): bigint {
  const abs = (value: bigint): bigint => (value < 0n ? -value : value);
  return (
    abs(kept.balanceMicros - recomputed.balanceMicros) +
    abs(kept.heldMicros - recomputed.heldMicros) +
    abs(kept.spentMicros - recomputed.spentMicros)
  );
}

export interface AuditInput {
  prisma: PrismaClient;
  /** The load's clients (every run of theirs is audited, including ones of earlier windows). */
  clientIds: readonly string[];
  /** What the load asked for in this window. */
  loadRuns: readonly LoadRun[];
  executions: () => Map<string, RunExecutions>;
  /** Pids of worker processes the test SIGKILLed: a run they finished may be executed once more. */
  killedWorkerPids: ReadonlySet<number>;
}

/**
 * Waits (up to SETTLE_WITHIN_MS) until every run of the clients is terminal and settled, then
 * checks each of them; never throws on a finding, so the test can print the whole report.
 */
export async function auditRuns(input: AuditInput): Promise<AuditReport> {
  const { prisma, clientIds } = input;
  const started = Date.now();
  let rows: RunRow[] = [];
  let ledger: LedgerRow[] = [];
  let open = new Set<string>();
  await pollUntil(
    async () => {
      [rows, ledger, open] = await Promise.all([
        loadRuns(prisma, clientIds),
        loadLedger(prisma, clientIds),
        openHoldRunIds(prisma, clientIds),
      ]);
      return rows.every((run) => isFinished(run, ledger, open));
    },
    { timeoutMs: SETTLE_WITHIN_MS, intervalMs: POLL_INTERVAL_MS, what: 'every run terminal and settled' },
  ).catch(() => undefined); // what is still unfinished becomes a finding below
  const settleMs = Date.now() - started;

  const findings: AuditFinding[] = [];
  const byId = new Map(rows.map((run) => [run.id, run]));
  const byKey = new Map(rows.map((run) => [`${run.client_id} ${run.idempotency_key}`, run]));
  const lost: string[] = [];
  let recorded = 0;
  for (const asked of input.loadRuns) {
    const row =
      asked.runId === undefined
        ? byKey.get(`${asked.clientId} ${asked.idempotencyKey}`)
        : byId.get(asked.runId);
    if (row !== undefined) recorded += 1;
    else if (asked.runId !== undefined) lost.push(asked.runId);
  }

  const executions = input.executions();
  const reExecutedAfterKill: string[] = [];
  for (const run of rows) {
    const state = `${run.status} (hold_pending ${run.hold_pending}, dispatches ${run.dispatches}, job ${run.job_id}, settled_at ${run.settled_at?.toISOString() ?? null}, attempts ${run.attempts})`;
    if (!isFinished(run, ledger, open)) {
      findings.push({
        runId: run.id,
        problem: `not terminal and settled ${SETTLE_WITHIN_MS} ms after recovery: ${state}`,
      });
    } else if (run.status !== 'completed') {
      findings.push({ runId: run.id, problem: `ended ${state}: ${JSON.stringify(run.error)}` });
    }

    // Executed at most once: a second finished execution is allowed only when every earlier one
    // was finished by a worker the test killed (its report may have died with it).
    const execution = executions.get(run.id) ?? { started: [], finished: [], timeline: [] };
    const earlier = execution.finished.slice(0, -1);
    if (execution.finished.length > 1) {
      if (earlier.every((pid) => input.killedWorkerPids.has(pid))) reExecutedAfterKill.push(run.id);
      else
        findings.push({
          runId: run.id,
          problem: `executed ${execution.finished.length} times: ${execution.timeline.join(', ')} (attempts ${run.attempts}, dispatches ${run.dispatches})`,
        });
    }
    if (run.status === 'completed' && execution.finished.length === 0) {
      findings.push({ runId: run.id, problem: 'completed but no worker execution was seen' });
    }
    // The orchestrator's own count of granted attempts covers every execution begun.
    if (execution.started.length > run.attempts) {
      findings.push({
        runId: run.id,
        problem: `${execution.started.length} executions begun but attempts = ${run.attempts}`,
      });
    }

    // Charged exactly once: a completed run has one capture of its price and no release; any other
    // end has no capture and (when it held money) one release.
    const lines = (kind: string) => ledger.find((line) => line.run_id === run.id && line.kind === kind);
    const capture = lines('capture');
    const release = lines('release');
    if (run.price_micros > 0n && TERMINAL.has(run.status)) {
      if (
        run.status === 'completed' &&
        (capture?.amount_micros !== -run.price_micros || release !== undefined)
      ) {
        findings.push({
          runId: run.id,
          problem: `completed, price ${run.price_micros}: capture ${capture?.amount_micros ?? 'none'}, release ${release === undefined ? 'none' : 'present'}`,
        });
      }
      if (run.status !== 'completed' && capture !== undefined) {
        findings.push({ runId: run.id, problem: `${run.status} but captured ${capture.amount_micros}` });
      }
    }
    if (open.has(run.id) && TERMINAL.has(run.status)) {
      findings.push({ runId: run.id, problem: `${run.status} with its hold still open` });
    }
  }

  // Per client: the running totals equal the ledger's lines, and captures equal the prices of the
  // completed runs (no µUSD more or less).
  let driftMicros = 0n;
  const period = spendPeriod(new Date());
  for (const clientId of clientIds) {
    const [kept, recomputed] = await Promise.all([
      ledgerTotals(prisma, clientId, period),
      recomputeLedgerTotals(prisma, clientId, period),
    ]);
    driftMicros += totalsDrift(kept, recomputed);
    const runIds = new Set(rows.filter((run) => run.client_id === clientId).map((run) => run.id));
    const captured = ledger
      .filter((line) => line.kind === 'capture' && runIds.has(line.run_id))
      .reduce((sum, line) => sum - line.amount_micros, 0n);
    const prices = rows
      .filter((run) => run.client_id === clientId && run.status === 'completed')
      .reduce((sum, run) => sum + run.price_micros, 0n);
    driftMicros += captured > prices ? captured - prices : prices - captured;
  }
  // Money moved for a run the orchestrator has no row of: a capture, or a hold never released.
  const unknown = new Set(ledger.filter((line) => !byId.has(line.run_id)).map((line) => line.run_id));
  for (const runId of unknown) {
    const kinds = ledger.filter((line) => line.run_id === runId).map((line) => line.kind);
    if (kinds.includes('capture') || (kinds.includes('hold') && !kinds.includes('release'))) {
      findings.push({ runId, problem: `ledger lines ${kinds.join(', ')} for a run with no row` });
    }
  }

  return {
    runs: recorded,
    acknowledged: input.loadRuns.filter((run) => run.runId !== undefined).length,
    completed: rows.filter((run) => run.status === 'completed').length,
    lost,
    findings,
    reExecutedAfterKill,
    driftMicros,
    // Open holds of finished runs, or of runs with no row at all (nothing will ever settle them).
    openHolds: [...open].filter((runId) => {
      const status = byId.get(runId)?.status;
      return status === undefined || TERMINAL.has(status);
    }).length,
    settleMs,
  };
}
