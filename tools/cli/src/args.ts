import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './usage-error';

/**
 * `--input`: `@file.json` (a file, `@-` for stdin) or the JSON text itself. The capability input is
 * always a JSON object (spec §4.3).
 */
export function parseInput(
  value: string,
  cwd: string,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): Record<string, unknown> {
  let text: string;
  let source: string;
  if (value.startsWith('@')) {
    const file = value.slice(1);
    if (file === '') throw new UsageError('--input @<file>: the file name is missing');
    source = file === '-' ? 'stdin' : file;
    try {
      text = readFile(file === '-' ? '/dev/stdin' : resolve(cwd, file));
    } catch (error) {
      throw new UsageError(
        `--input: cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? error}`,
      );
    }
  } else {
    text = value;
    source = 'the --input text';
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input: ${source} is not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`--input: ${source} must be a JSON object (the capability input)`);
  }
  return parsed as Record<string, unknown>;
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** `--deadline 90s` / `2m` / `500ms` / `1h` / `30` (seconds) → ms. */
export function parseDuration(value: string, flag = '--deadline'): number {
  const match = DURATION.exec(value.trim());
  if (match === null)
    throw new UsageError(`${flag}: ${JSON.stringify(value)} is not a duration (e.g. 60s, 5m, 500ms)`);
  const unit = (match[2] ?? 's') as keyof typeof UNIT_MS;
  const ms = Math.round(Number(match[1]) * UNIT_MS[unit]);
  if (ms <= 0) throw new UsageError(`${flag} must be more than 0`);
  if (ms > 24 * 3_600_000) throw new UsageError(`${flag} must be at most 24h`);
  return ms;
}

/** `--limit` and the like: a whole number in [min, max]. */
export function parseIntInRange(value: string, flag: string, min: number, max: number): number {
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`${flag} must be a whole number`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`${flag} must be between ${min} and ${max}`);
  return n;
}

/** `usage --from/--to`: a date (2026-11-01) or an RFC 3339 instant, passed on as given. */
export function parseDateFlag(value: string, flag: string): string {
  const trimmed = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) {
    return `${trimmed}T00:00:00Z`;
  }
  if (Number.isNaN(Date.parse(trimmed)) || !/^\d{4}-\d{2}-\d{2}T/.test(trimmed)) {
    throw new UsageError(`${flag} must be a date (2026-11-01) or an RFC 3339 time (2026-11-01T00:00:00Z)`);
  }
  return trimmed;
}
