import { createHash } from 'node:crypto';
import { Apex } from '@svc/contracts';
import {
  type CrtBatchPlanInput,
  CrtBatchPlanResult,
  type PlannedCrtRun,
  type RejectedPlanEntry,
} from './schema';

/** Where every planned request goes: crt's own run endpoint (spec §4.5). */
const CRT_RUN_PATH = '/api/capabilities/crt/run';
/** Hex characters of sha256 kept in an idempotency key: 96 bits, no collision within a plan or a client's runs. */
const KEY_HEX_LENGTH = 24;

/**
 * The plan of a `crt-batch-plan` run (plan_only, spec §2.1: the result is a client plan, no server
 * processing). Pure: no I/O, and the same (runId, input) always gives the same plan.
 *
 * Each entry is trimmed and its ASCII letters lowercased (only ASCII: `toLowerCase()` maps some
 * non-ASCII letters to ASCII, e.g. KELVIN SIGN U+212A to "k", which would let a non-ASCII entry pass
 * the apex rules), then checked with the crt `Apex` schema, whose message is the rejection reason.
 * A valid entry equal to an earlier planned one is rejected as `duplicate of entry <i>`, i being the
 * planned one (an invalid entry keeps its own reason even when repeated: that is what to fix).
 *
 * Each planned run carries the exact crt run request and its own Idempotency-Key
 * `crt-plan.<24 hex of sha256(runId:apex)>`: stable for this plan, so a client that retries a
 * request (or re-reads the plan) never starts a second run of it (spec §4 rule 2), and different
 * across plans, so a new plan runs again.
 */
export function buildCrtBatchPlan(runId: string, input: CrtBatchPlanInput): CrtBatchPlanResult {
  const planned: PlannedCrtRun[] = [];
  const rejected: RejectedPlanEntry[] = [];
  /** apex → index of the entry that planned it. */
  const plannedIndex = new Map<string, number>();

  input.apexes.forEach((entry, index) => {
    const parsed = Apex.safeParse(normaliseEntry(entry));
    if (!parsed.success) {
      rejected.push({ index, entry, reason: parsed.error.issues[0]?.message ?? 'is not a valid apex' });
      return;
    }
    const apex = parsed.data;
    const first = plannedIndex.get(apex);
    if (first !== undefined) {
      rejected.push({ index, entry, reason: `duplicate of entry ${first}` });
      return;
    }
    plannedIndex.set(apex, index);
    planned.push(plannedRun(runId, index, apex, input));
  });

  // Parsed on the way out: every planned body must be a valid CrtRunRequest and every key a valid
  // Idempotency-Key; a plan that is not is a bug and throws (the run is not created).
  return CrtBatchPlanResult.parse({
    summary: summarise(planned.length, rejected.length),
    server_processing: false,
    planned,
    rejected,
    counts: { submitted: input.apexes.length, planned: planned.length, rejected: rejected.length },
  });
}

/** `crt-plan.<first 24 hex of sha256(runId + ":" + apex)>`: 33 characters of `[a-z0-9.-]`. */
export function planIdempotencyKey(runId: string, apex: string): string {
  const digest = createHash('sha256').update(`${runId}:${apex}`, 'utf8').digest('hex');
  return `crt-plan.${digest.slice(0, KEY_HEX_LENGTH)}`;
}

function normaliseEntry(entry: string): string {
  return entry.trim().replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

function plannedRun(runId: string, index: number, apex: string, input: CrtBatchPlanInput): PlannedCrtRun {
  const key = planIdempotencyKey(runId, apex);
  return {
    index,
    apex,
    idempotency_key: key,
    request: {
      method: 'POST',
      path: CRT_RUN_PATH,
      headers: { 'Idempotency-Key': key },
      body: {
        input: { apex, limit: input.limit, include_first_seen: input.include_first_seen },
        client_type: 'api',
      },
    },
  };
}

function summarise(planned: number, rejected: number): string {
  const runs = `${planned} crt ${planned === 1 ? 'run' : 'runs'} planned`;
  const entries = `${rejected} ${rejected === 1 ? 'entry' : 'entries'} rejected`;
  return `${runs}, ${entries}; the server ran nothing`;
}
