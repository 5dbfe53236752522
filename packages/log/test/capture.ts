import type { Logger } from 'pino';
import { createLogger } from '../src/index';

/** A logger writing into memory; `lines()` parses what was written, `text()` is the raw output. */
export function capture(service = 'test-service', level: 'trace' | 'info' = 'trace') {
  const chunks: string[] = [];
  const logger: Logger = createLogger({
    service,
    level,
    destination: { write: (line: string) => void chunks.push(line) },
  });
  return {
    logger,
    text: () => chunks.join(''),
    lines: (): Record<string, unknown>[] =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line)),
  };
}
