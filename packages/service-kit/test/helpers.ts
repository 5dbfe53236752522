import { createLogger, type Logger } from '@svc/log';

/** A logger whose JSON lines are kept in memory, so tests can assert what was logged. */
export function memoryLogger(service = 'kit-test'): {
  logger: Logger;
  lines: () => Array<Record<string, unknown>>;
} {
  const raw: string[] = [];
  const logger = createLogger({
    service,
    level: 'debug',
    destination: { write: (line: string) => raw.push(line) },
  });
  const lines = () =>
    raw.map((line) => {
      const parsed: Record<string, unknown> = JSON.parse(line);
      return parsed;
    });
  return { logger, lines };
}
