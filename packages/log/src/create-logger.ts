import pino, { type DestinationStream, type LevelWithSilent, type Logger } from 'pino';
import { REDACT_PATHS } from './redact-paths';
import { REDACTED, scrubSecrets } from './scrub';

export interface CreateLoggerOptions {
  /** Goes into every line as `service`. */
  service: string;
  /** Default `info`. */
  level?: LevelWithSilent;
  /**
   * Where lines go. Default: stdout, written synchronously so lines keep their order and survive
   * process.exit() (pino's asynchronous stdout can reorder the last lines then: seen here with 5
   * lines and process.exit). Pass `pino.destination({ dest: 1, sync: false })`
   * where raw throughput matters more. Tests pass a stream and read the lines.
   */
  destination?: DestinationStream;
}

/**
 * Every serialized line passes through scrubSecrets() before it reaches the destination. Scrubbing
 * the final text (not the objects) covers the message, format arguments, nested fields, error
 * messages and stacks, child bindings and anything a serializer produced, without walking
 * objects on the hot path.
 */
function scrubbing(destination: DestinationStream): DestinationStream {
  const write = (line: string) => destination.write(scrubSecrets(line));
  // logger.flush() calls the stream's flush when there is one (sonic-boom has it): keep it reachable.
  if ('flush' in destination && typeof destination.flush === 'function') {
    const flush = destination.flush;
    const flushing: DestinationStream & { flush(cb: (err?: Error) => void): void } = {
      write,
      flush: (cb) => Reflect.apply(flush, destination, [cb]),
    };
    return flushing;
  }
  return { write };
}

/** pino logger with `service` on every line, key-path redaction and secret scrubbing. */
export function createLogger(options: CreateLoggerOptions): Logger {
  const destination = options.destination ?? pino.destination({ dest: 1, sync: true });
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: [...REDACT_PATHS], censor: REDACTED },
    },
    scrubbing(destination),
  );
}
