import { randomUUID } from 'node:crypto';
import { ErrorResponse } from '@svc/contracts';
import type { AppHarness } from './app-harness';

/** Requests to the run routes of an app harness (unit tests of run-routes and run-status-route). */

export interface RunCall {
  body?: unknown;
  rawBody?: string;
  key?: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

/**
 * POST `path` with `call.body` as JSON (or `rawBody` as is), the runner key unless `apiKey` says
 * otherwise (`''`: no Authorization header) and `key` as Idempotency-Key.
 */
export function post(app: AppHarness, path: string, call: RunCall): Promise<Response> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...call.headers };
  const apiKey = call.apiKey ?? app.keys.runner;
  if (apiKey !== '') headers.Authorization = `Bearer ${apiKey}`;
  if (call.key !== undefined) headers['Idempotency-Key'] = call.key;
  const init: RequestInit = { method: 'POST', headers };
  if (call.rawBody !== undefined) init.body = call.rawBody;
  else if (call.body !== undefined) init.body = JSON.stringify(call.body);
  return app.fetch(path, init);
}

export function runCrt(app: AppHarness, call: RunCall): Promise<Response> {
  return post(app, '/api/capabilities/crt/run', call);
}

export function getRun(app: AppHarness, path: string, apiKey = app.keys.runner): Promise<Response> {
  return app.fetch(path, { headers: { Authorization: `Bearer ${apiKey}` } });
}

export async function errorOf(response: Response): Promise<string> {
  return ErrorResponse.parse(await response.json()).error;
}

export const uniqueKey = () => `key-${randomUUID()}`;
