import { accessSync, constants } from 'node:fs';

/**
 * Which runtimes the worker of `pnpm start` serves (design: html-to-pdf runs only on a worker whose
 * WORKER_RUNTIMES includes `browser`). The launcher starts one worker process; when the operator did
 * not choose its runtimes and a Chromium is installed, that worker serves `node,browser`, so every
 * capability of the catalog runs out of the box. Without Chromium it stays `node` (the worker's own
 * default): html-to-pdf runs are then accepted and wait, saying which runtime they wait for.
 *
 * Which Chromium: CHROMIUM_PATH when the operator set it, else the first installed of
 * CHROMIUM_CANDIDATES (the worker's default, Debian's chromium-headless-shell, then Debian's full
 * chromium), handed to the worker as its CHROMIUM_PATH, so a machine with either package gets a
 * browser worker.
 */

/**
 * Where `pnpm start` looks for a Chromium when CHROMIUM_PATH is not set, best first: the headless
 * shell is the worker's default (packages/capabilities html-to-pdf env.ts; decisions T6), the full
 * browser works too.
 */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'] as const;

export interface WorkerRuntimesInput {
  /** WORKER_RUNTIMES as set in the launcher's environment (passed through untouched when set). */
  readonly configured: string | undefined;
  /** CHROMIUM_PATH as set in the launcher's environment, or undefined (the worker reads the same variable). */
  readonly chromiumPath: string | undefined;
  /** Whether a file is an executable the launcher may start (injected for tests). */
  readonly isExecutable?: (file: string) => boolean;
}

export interface WorkerRuntimesChoice {
  /** The value to set, or undefined to leave WORKER_RUNTIMES as it is. */
  readonly runtimes: string | undefined;
  /** The worker's CHROMIUM_PATH to set (an installed candidate), or undefined to leave it as it is. */
  readonly chromiumPath: string | undefined;
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
    return { runtimes: undefined, chromiumPath: undefined, note: undefined };
  }
  const isExecutable = input.isExecutable ?? isExecutableFile;
  const configured = input.chromiumPath;
  const looked = configured === undefined ? CHROMIUM_CANDIDATES : [configured];
  const found = looked.find((file) => isExecutable(file));
  if (found !== undefined) {
    return {
      runtimes: 'node,browser',
      chromiumPath: configured === undefined ? found : undefined,
      note: {
        level: 'info',
        text: `worker runtimes: node,browser (Chromium at ${found}; set WORKER_RUNTIMES to choose)`,
      },
    };
  }
  return {
    runtimes: 'node',
    chromiumPath: undefined,
    note: {
      level: 'warn',
      text:
        `worker runtimes: node only: no Chromium at ${looked.join(' or ')}, so html-to-pdf runs wait for a ` +
        'browser worker (install chromium-headless-shell or chromium, or set CHROMIUM_PATH, then restart)',
    },
  };
}
