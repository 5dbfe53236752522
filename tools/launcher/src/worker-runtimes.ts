import { accessSync, constants } from 'node:fs';

/**
 * Which runtimes the worker of `pnpm start` serves (design: html-to-pdf runs only on a worker whose
 * WORKER_RUNTIMES includes `browser`). The launcher starts one worker process; when the operator did
 * not choose its runtimes and a Chromium is installed, that worker serves `node,browser`, so every
 * capability of the catalog runs out of the box. Without Chromium it stays `node` (the worker's own
 * default): html-to-pdf runs are then accepted and wait, saying which runtime they wait for.
 */

export interface WorkerRuntimesInput {
  /** WORKER_RUNTIMES as set in the launcher's environment (passed through untouched when set). */
  readonly configured: string | undefined;
  /** CHROMIUM_PATH (the worker reads the same variable). */
  readonly chromiumPath: string;
  /** Whether a file is an executable the launcher may start (injected for tests). */
  readonly isExecutable?: (file: string) => boolean;
}

export interface WorkerRuntimesChoice {
  /** The value to set, or undefined to leave WORKER_RUNTIMES as it is. */
  readonly runtimes: string | undefined;
  /** One line for the launcher's log (a warning when html-to-pdf cannot run), or undefined. */
  readonly note: { readonly level: 'info' | 'warn'; readonly text: string } | undefined;
}

export function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function chooseWorkerRuntimes(input: WorkerRuntimesInput): WorkerRuntimesChoice {
  if (input.configured !== undefined && input.configured.trim() !== '') {
    return { runtimes: undefined, note: undefined };
  }
  const isExecutable = input.isExecutable ?? isExecutableFile;
  if (isExecutable(input.chromiumPath)) {
    return {
      runtimes: 'node,browser',
      note: {
        level: 'info',
        text: `worker runtimes: node,browser (Chromium at ${input.chromiumPath}; set WORKER_RUNTIMES to choose)`,
      },
    };
  }
  return {
    runtimes: 'node',
    note: {
      level: 'warn',
      text:
        `worker runtimes: node only: no Chromium at ${input.chromiumPath}, so html-to-pdf runs wait for a ` +
        'browser worker (install chromium or set CHROMIUM_PATH, then restart)',
    },
  };
}
