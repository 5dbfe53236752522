import { AppError } from '@svc/errors';
import { code, table } from './markdown';

/** A subclass of AppError whose constructor takes an optional message (every one @svc/errors exports). */
type AppErrorClass = new () => AppError;

function isAppErrorClass(value: unknown): value is AppErrorClass {
  return typeof value === 'function' && value.prototype instanceof AppError;
}

/**
 * The `errors` region: every AppError subclass a module exports (status order), with what a
 * default instance says; then the run error codes (`RunError.code` of a failed run).
 */
export function errorsRegion(
  errorExports: Readonly<Record<string, unknown>>,
  runErrorCodes: Readonly<Record<string, string>>,
): string {
  const classes = Object.entries(errorExports)
    .flatMap(([name, value]) => (isAppErrorClass(value) ? [{ name, error: new value() }] : []))
    .sort((a, b) => a.error.status - b.error.status || a.name.localeCompare(b.name));
  const classRows = classes.map(({ name, error }) => [
    code(name),
    String(error.status),
    code(error.message),
    error.expose ? 'its message' : '`internal error` (the message stays in our logs)',
  ]);
  const codeRows = Object.entries(runErrorCodes).map(([constant, value]) => [
    code(value),
    code(`RUN_ERROR_CODES.${constant}`),
  ]);
  return [
    'HTTP errors (`AppError` subclasses of @svc/errors; they cross the bus as `WireError` and come back as the same class):',
    table(['class', 'status', 'default message', 'clients see'], classRows),
    'Run error codes (`error.code` of a failed run, `RUN_ERROR_CODES` of @svc/contracts; clients treat unknown codes like `internal`):',
    table(['code', 'constant'], codeRows),
  ].join('\n\n');
}
