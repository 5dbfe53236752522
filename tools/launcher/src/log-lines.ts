// The services log JSON lines (pino): right for files, pipes and log collectors, hard to read on a
// terminal. This turns one into `10:35:25 WARN  not ready  checks={"postgres":{"ok":false,…}}`.

/** pino's numeric levels. */
const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
/** pino's `warn`: the terminal view shows this level and above once the platform is up. */
export const WARN_LEVEL = 40;
/** Fields every line carries (the prefix already names the service), left out of the readable line. */
const HIDDEN_FIELDS = new Set(['level', 'time', 'service', 'msg', 'pid', 'hostname', 'worker_id']);
/** characters: a longer readable line is cut (the log file has all of it). */
const MAX_LENGTH = 400;

export interface ReadableLine {
  /** pino's level; undefined for a line that is not a JSON log line (a stack trace, a library's print). */
  level: number | undefined;
  text: string;
}

function fieldText(value: unknown): string {
  if (typeof value === 'string') return /\s/.test(value) ? JSON.stringify(value) : value;
  // pino's err serializer: the message says it; the stack is in the log file.
  if (
    typeof value === 'object' &&
    value !== null &&
    'message' in value &&
    typeof value.message === 'string'
  ) {
    return JSON.stringify(value.message);
  }
  return JSON.stringify(value) ?? String(value);
}

/** `HH:MM:SS` of pino's ISO time (the launcher's services log `time` as an ISO string), else ''. */
function clock(time: unknown): string {
  return typeof time === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(time)
    ? `${time.slice(11, 19)} `
    : '';
}

/** One line a service wrote, readable; anything that is not a JSON log line is kept as it is. */
export function readableLine(raw: string): ReadableLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { level: undefined, text: raw };
  }
  if (typeof value !== 'object' || value === null || !('level' in value) || typeof value.level !== 'number') {
    return { level: undefined, text: raw };
  }
  const record: Record<string, unknown> = { ...value };
  const level = value.level;
  const name = (LEVEL_NAMES[level] ?? String(level)).toUpperCase().padEnd(5);
  const message = typeof record.msg === 'string' ? record.msg : '';
  const fields = Object.entries(record)
    .filter(([key]) => !HIDDEN_FIELDS.has(key))
    .map(([key, field]) => `${key}=${fieldText(field)}`);
  const text = `${clock(record.time)}${name} ${message}${fields.length > 0 ? `  ${fields.join(' ')}` : ''}`;
  return { level, text: text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 1)}…` : text };
}

/** Worth showing on a terminal once the platform is up: a warning or worse, or a line that is not a log line. */
export function isNotable(line: ReadableLine): boolean {
  return line.level === undefined || line.level >= WARN_LEVEL;
}
