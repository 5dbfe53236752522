import { unavailableStore } from '@svc/errors';
import { type LifecycleOptions, runLifecycle } from './lifecycle';

const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * The process wrapper around `runLifecycle`: SIGTERM/SIGINT start a graceful shutdown (a second one
 * exits at once with 1), the process exits with the lifecycle's code, and an unhandled rejection or
 * uncaught exception is logged and exits 1 (the process state is unknown after one: the
 * orchestrator restarts it rather than let it limp on). One exception: an unhandled rejection that
 * only says Redis or PostgreSQL is unreachable (e.g. ioredis' MaxRetriesPerRequestError from a
 * command a library fired and never awaited during an outage) is logged and the process lives on:
 * the command did not happen, nothing is half-done, and the connection recovers by itself
 * (issue 15: a 20 s Redis outage under load had killed the gateway and the orchestrator this way).
 */
export function runService(options: LifecycleOptions): void {
  const { logger } = options;
  process.title = options.name; // what `ps` and `top` show

  const fatal = (kind: string) => (err: unknown) => {
    logger.fatal({ err }, kind);
    process.exit(1);
  };
  const exitOnRejection = fatal('unhandled rejection');
  process.on('unhandledRejection', (err: unknown) => {
    const store = unavailableStore(err);
    if (store === undefined) return exitOnRejection(err);
    logger.warn({ err, store }, 'unhandled rejection: the store is unreachable; the process lives on');
  });
  process.on('uncaughtException', fatal('uncaught exception'));

  const stop = new Promise<string>((resolve) => {
    let stopping = false;
    for (const signal of SHUTDOWN_SIGNALS) {
      process.on(signal, () => {
        if (stopping) {
          logger.warn({ signal }, 'second signal during shutdown: exiting now');
          process.exit(1);
        }
        stopping = true;
        resolve(signal);
      });
    }
  });

  // Signal listeners do not keep Node running: without this, a service whose start() left nothing
  // pending (or whose sockets all dropped) would exit 0 on its own instead of waiting for a signal.
  const keepAlive = setInterval(() => {}, 60 * 60 * 1000);

  void runLifecycle(options, stop).then((code) => {
    clearInterval(keepAlive);
    process.exit(code);
  });
}
