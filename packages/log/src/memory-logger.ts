import type { LevelWithSilent, Logger } from 'pino';
import { createLogger } from './create-logger';

export interface MemoryLogger {
  /** A real service logger (same redaction and scrubbing) whose lines stay in memory. */
  logger: Logger;
  /** Every line written so far, parsed. */
  lines(): Array<Record<string, unknown>>;
  /** Everything written so far, as written (tests grep it for secrets). */
  text(): string;
}

/** For tests: assert on what a component logged, through the production logger. */
export function memoryLogger(service = 'test', level: LevelWithSilent = 'debug'): MemoryLogger {
  const chunks: string[] = [];
  const logger = createLogger({
    service,
    level,
    destination: { write: (line: string) => void chunks.push(line) },
  });
  const text = () => chunks.join('');
  const lines = (): Array<Record<string, unknown>> =>
    text()
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line): Record<string, unknown> => JSON.parse(line));
  return { logger, lines, text };
}
