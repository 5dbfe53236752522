import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { artifactKey } from '@svc/capabilities';
import type { RpcRequestInput, RunReport } from '@svc/contracts';
import { pollUntil } from '@svc/testkit';
import type { PlatformServices } from './platform-services';

/** The result a worker reports for the PII capability's input `x` (nothing found). */
export const PII_RESULT_OF_X = {
  redacted_text: 'x',
  findings: [],
  counts: { email: 0, phone: 0, iban: 0, card: 0 },
  characters: 1,
};

/** A worker's report without what the driver fills in (the run, its job, the attempt, the time). */
export type ReportBody = RunReport extends infer R
  ? R extends RunReport
    ? Omit<R, 'run_id' | 'job_id' | 'attempt' | 'at'>
    : never
  : never;

/**
 * Moves runs through their life as the platform would, through the real orchestrator's handlers:
 * a run started as a client starts one, a worker's claim and report for a run of any capability,
 * and a finished crt run to look at.
 */
export interface RunDriver {
  /**
   * Starts a run of `slug` for `clientId` as an API client would: quoted first (a paid capability's
   * price is held), then started with that quote and a fresh Idempotency-Key. The run stays queued
   * until a test claims and reports it (no worker takes capabilities other than crt). Its run id.
   */
  startRun(clientId: string, slug: string, input: Record<string, unknown>): Promise<string>;
  /** Claims the run's current job as its worker would: the run is running (attempt 1). */
  claim(clientId: string, runId: string): Promise<void>;
  /** Reports how the claimed attempt ended (completed with a result, failed, cancelled). */
  report(clientId: string, runId: string, body: ReportBody): Promise<void>;
  /**
   * Stores `bytes` as an artifact of the run and has the uploads service register it, as the
   * orchestrator does for a completed run's report; the artifact's id.
   */
  addArtifact(
    clientId: string,
    runId: string,
    name: string,
    bytes: Buffer,
    contentType?: string,
  ): Promise<string>;
  /** A crt run of `clientId`, started and finished by the crt worker (its outcome must be `complete`). */
  completedCrtRun(
    clientId: string,
    input: RpcRequestInput<'orchestrator', 'startCrtRun'>['input'],
  ): Promise<string>;
}

export function runDriver(platform: PlatformServices): RunDriver {
  const orchestrator = platform.client('orchestrator');
  const uploads = platform.client('uploads');
  /** The run as the worker knows it: the internal id its job carries, and that job. */
  const jobOf = async (clientId: string, runId: string) => {
    const row = await platform.prisma.run.findFirst({
      where: { clientId, publicId: runId },
      select: { id: true, jobId: true, attempts: true },
    });
    if (row?.jobId == null) throw new Error(`run ${runId} of ${clientId} has no job`);
    return { run_id: row.id, job_id: row.jobId, attempt: row.attempts };
  };
  return {
    async startRun(clientId, slug, input) {
      const quote = await orchestrator.quote({ client_id: clientId, slug, input, client_type: 'api' });
      const { run } = await orchestrator.startRun({
        client_id: clientId,
        slug,
        input,
        quote_id: quote.quote_id,
        client_type: 'api',
        idempotency_key: `run-${randomUUID()}`,
      });
      return run.run_id;
    },
    async claim(clientId, runId) {
      const { run_id, job_id } = await jobOf(clientId, runId);
      const claim = await orchestrator.claimAttempt({ run_id, job_id });
      if (!claim.go) throw new Error(`run ${runId}: claim refused (${claim.reason})`);
    },
    async report(clientId, runId, body) {
      const { run_id, job_id, attempt } = await jobOf(clientId, runId);
      await orchestrator.reportRun({ ...body, run_id, job_id, attempt, at: new Date().toISOString() });
    },
    async addArtifact(clientId, runId, name, bytes, contentType = 'text/plain') {
      const { run_id } = await jobOf(clientId, runId);
      const storageKey = artifactKey(run_id, name);
      await platform.store.put(storageKey, Readable.from([bytes]), { contentType, sizeBytes: bytes.length });
      const artifact = {
        name,
        content_type: contentType,
        size_bytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        storage_key: storageKey,
      };
      await uploads.registerArtifacts({ client_id: clientId, run_id, artifacts: [artifact] });
      const row = await platform.prisma.artifact.findFirst({
        where: { runId: run_id, name },
        select: { id: true },
      });
      if (row === null) throw new Error(`artifact ${name} of run ${runId} was not registered`);
      return row.id;
    },
    async completedCrtRun(clientId, input) {
      const { run } = await orchestrator.startCrtRun({ client_id: clientId, client_type: 'api', input });
      await pollUntil(
        async () =>
          (await orchestrator.getRun({ client_id: clientId, run_id: run.run_id })).status === 'completed',
        { what: `crt run ${run.run_id} completed` },
      );
      return run.run_id;
    },
  };
}
