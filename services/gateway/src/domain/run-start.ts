import type { ClientType } from '@svc/contracts';
import { type RunOrchestrator, type StartedRun, startRunFailure } from './run-orchestrator';

/** The part of a run request both starts take: the crt run's body and any other run's share it. */
interface RunBody<Input> {
  readonly input: Input;
  readonly client_type: ClientType;
  readonly quote_id?: string | undefined;
}

/** A run to start: its parsed body, whose it is, and the Idempotency-Key it came with. */
export interface RunStart<Input> {
  readonly clientId: string;
  readonly request: RunBody<Input>;
  readonly idempotencyKey: string | undefined;
}

/**
 * The start request of a run, the same for crt (`orchestrator.startCrtRun`) and every other
 * capability (`orchestrator.startRun`, which adds the slug): optional fields are left out rather than
 * sent empty, so a replay compares requests as the client sent them.
 */
function startRequest<Input>({ clientId, request, idempotencyKey }: RunStart<Input>) {
  return {
    client_id: clientId,
    input: request.input,
    client_type: request.client_type,
    ...(request.quote_id === undefined ? {} : { quote_id: request.quote_id }),
    ...(idempotencyKey === undefined ? {} : { idempotency_key: idempotencyKey }),
  };
}

/** A start's 503 says the run may have been recorded and how to retry (startRunFailure). */
function started(start: Promise<StartedRun>, idempotencyKey: string | undefined): Promise<StartedRun> {
  return start.catch((err: unknown) => {
    throw startRunFailure(err, idempotencyKey);
  });
}

/**
 * Starts a run of any capability but crt (spec §4.4). Whether a key and a quote are required
 * depends on the price, which only the orchestrator knows (422 naming the price when missing).
 */
export function startCapabilityRun(
  orchestrator: Pick<RunOrchestrator, 'startRun'>,
  slug: string,
  run: RunStart<Record<string, unknown>>,
): Promise<StartedRun> {
  return started(orchestrator.startRun({ ...startRequest(run), slug }), run.idempotencyKey);
}

/** Records and queues a crt run (spec §4.5); its input is crt's, already parsed. */
export function startCrtRun(
  orchestrator: Pick<RunOrchestrator, 'startCrtRun'>,
  run: RunStart<Parameters<RunOrchestrator['startCrtRun']>[0]['input']>,
): Promise<StartedRun> {
  return started(orchestrator.startCrtRun(startRequest(run)), run.idempotencyKey);
}
