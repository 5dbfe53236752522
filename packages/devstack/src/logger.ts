/**
 * The little logging surface devstack needs. A pino `Logger` (from @svc/log) satisfies it, so the
 * launcher passes its own; tests and the jest setup can pass `console`-like objects. Messages never
 * contain passwords: URLs are redacted before they are logged (see `redactUrl`).
 */
export interface DevstackLogger {
  info(message: string): void;
  warn(message: string): void;
  debug(message: string): void;
}

/** Default when the caller passes no logger: quiet, except warnings, which say something went odd. */
export const silentLogger: DevstackLogger = {
  info: () => undefined,
  warn: (message) => {
    process.stderr.write(`[devstack] ${message}\n`);
  },
  debug: () => undefined,
};

/** Prefixed console logger for scripts (jest global setup, manual runs). `debug` is dropped. */
export function consoleLogger(prefix: string): DevstackLogger {
  return {
    info: (message) => process.stderr.write(`[${prefix}] ${message}\n`),
    warn: (message) => process.stderr.write(`[${prefix}] warning: ${message}\n`),
    debug: () => undefined,
  };
}
