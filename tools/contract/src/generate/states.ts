import {
  canQuoteAndRun,
  effectiveRunStatus,
  isTerminalRunState,
  MACHINE_RUN_STATUSES,
  type MachineRunStatus,
  RUN_STATE_TRANSITIONS,
  RUN_STATES,
  type RunState,
} from '@svc/contracts';
import type { ExecutionModeElement, LifecycleElement, RunStateElement } from '../manifest-types';

/** Spec §2.1: what each published `machine_run_status` value means to a client. */
const MODE_DESCRIPTIONS: Readonly<Record<MachineRunStatus, string>> = {
  supported: 'Runs in this service: quote it, then run it.',
  requires_worker:
    'Runs on a worker of its runtime: quote it, then run it (the quote says whether a worker is up).',
  plan_only: 'Quote and run return a plan of the work, not its execution.',
  describe_only:
    'Described only: quote, run and upload sessions are refused (409). A missing or unknown value is treated the same.',
  runnable: 'Legacy value, treated as `supported`.',
};

export function executionModeElements(): ExecutionModeElement[] {
  return MACHINE_RUN_STATUSES.map((value) => ({
    id: `mode:${value}`,
    kind: 'execution_mode',
    value,
    runnable: canQuoteAndRun(effectiveRunStatus(value)),
    description: MODE_DESCRIPTIONS[value],
  }));
}

export function runStateElements(): RunStateElement[] {
  return RUN_STATES.map((value: RunState) => ({
    id: `state:${value}`,
    kind: 'run_state',
    value,
    terminal: isTerminalRunState(value),
    transitions: [...RUN_STATE_TRANSITIONS[value]].sort(),
  }));
}

/**
 * The two lifecycles of spec §9.2 ("quote/run and file lifecycles") as the REST calls a client
 * makes in order; each step has an MCP twin (svc_capabilities_search … svc_upload_session_create)
 * except the upload PUT and the download. Step ids are checked against the manifest when it is built.
 */
export function lifecycleElements(): LifecycleElement[] {
  return [
    {
      id: 'lifecycle:quote-run',
      kind: 'lifecycle',
      name: 'quote-run',
      description:
        'Search, describe (the input schema and execution mode), quote (valid 15 minutes, one run), run with ' +
        'the quote_id, the same input and an Idempotency-Key, then poll the run until a final state (crt: the ' +
        'run answers with the result).',
      steps: [
        'rest:GET /api/capabilities',
        'rest:GET /api/capabilities/{slug}',
        'rest:POST /api/capabilities/{slug}/quote',
        'rest:POST /api/capabilities/{slug}/run',
        'rest:GET /api/capability-runs/{run_id}',
      ],
    },
    {
      id: 'lifecycle:upload-quote-run-artifacts',
      kind: 'lifecycle',
      name: 'upload-quote-run-artifacts',
      description:
        'For capabilities with file_requirements: describe, open an upload session, PUT the bytes with the ' +
        'upload token, quote and run with the upload_id in the input, poll the run, list its artifacts and ' +
        'download each with the signed link and the same API key.',
      steps: [
        'rest:GET /api/capabilities/{slug}',
        'rest:POST /api/capabilities/{slug}/upload-session',
        'rest:PUT /api/capability-uploads/{upload_id}',
        'rest:POST /api/capabilities/{slug}/quote',
        'rest:POST /api/capabilities/{slug}/run',
        'rest:GET /api/capability-runs/{run_id}',
        'rest:GET /api/capability-runs/{run_id}/artifacts',
        'rest:GET /api/artifacts/{artifact_id}/download',
      ],
    },
  ];
}
