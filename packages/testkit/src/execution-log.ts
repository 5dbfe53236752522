import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Executions of capabilities in a test stack's workers, counted by execution-probe.ts (loaded into
 * the services with `--import`). `executionProbe(file, slugs)` gives the stack options that load it;
 * `readExecutions(file)` reads what it wrote.
 */

/** One run's executions: the worker pid of each one begun and of each one that returned. */
export interface RunExecutions {
  started: number[];
  /** Pids of executions that returned an outcome (completed or failed), in order. */
  finished: number[];
  /** Epoch ms of each line, `start`/`done` with its pid, in order (for a failure's message). */
  timeline: string[];
}

export interface ExecutionProbeOptions {
  /** `--import` modules of the workers, for StartTestStackOptions.nodeImports. */
  nodeImports: { worker: string[] };
  /** Env for StartTestStackOptions.env. */
  env: Record<string, string>;
}

/** Stack options that count every execution of the capabilities `slugs` into `file`. */
export function executionProbe(file: string, slugs: readonly string[]): ExecutionProbeOptions {
  return {
    nodeImports: { worker: [join(__dirname, 'execution-probe.ts')] },
    env: { SVC_TEST_EXECUTION_LOG: file, SVC_TEST_EXECUTION_SLUGS: slugs.join(',') },
  };
}

/** The probe's file, per run id (a missing file: no execution yet). */
export function readExecutions(file: string): Map<string, RunExecutions> {
  const runs = new Map<string, RunExecutions>();
  if (!existsSync(file)) return runs;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [event, runId, pid, at] = line.split(' ');
    if (runId === undefined || pid === undefined) continue;
    const entry = runs.get(runId) ?? { started: [], finished: [], timeline: [] };
    entry.timeline.push(`${event} pid ${pid} at ${at}`);
    if (event === 'start') entry.started.push(Number(pid));
    else if (event === 'done') entry.finished.push(Number(pid));
    runs.set(runId, entry);
  }
  return runs;
}
