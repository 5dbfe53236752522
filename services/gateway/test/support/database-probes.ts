import { randomUUID } from 'node:crypto';
import { DATABASE_SERVICE_NAMES, type DatabaseServiceName } from '@svc/devstack';
import type { FetchResult, TestStack } from '@svc/testkit';

/**
 * The services that hold PostgreSQL connections (`database: true` in the one service list): a
 * service added there with a database needs its probes below (a type error until it has them).
 */
export type DatabaseService = DatabaseServiceName;
export const DATABASE_SERVICES: readonly DatabaseService[] = DATABASE_SERVICE_NAMES;

/** What a probe needs: the stack and a key with every scope the probes use. */
export interface ProbeContext {
  stack: TestStack;
  apiKey: string;
}

let probeCount = 0;
/** A word no search asked for yet. */
function freshWord(): string {
  probeCount += 1;
  return `probe${probeCount}`;
}

/**
 * One request per service that cannot be answered without that service's own database: the
 * gateway's API-key lookup, an uncached search, a balance read and a quote (the wallet stores it),
 * a run and its status (the orchestrator), an upload session, and the vault's and the dashboard's
 * readiness (their health checks read PostgreSQL).
 */
export const PROBES: Record<DatabaseService, Array<(context: ProbeContext) => Promise<FetchResult>>> = {
  gateway: [({ stack, apiKey }) => stack.fetch('/api/account/whoami', { apiKey })],
  // A fresh word each time: the gateway's catalog cache must not answer for the registry.
  registry: [({ stack }) => stack.fetch(`/api/capabilities?q=${freshWord()}`)],
  wallet: [
    ({ stack, apiKey }) => stack.fetch('/api/account/balance', { apiKey }),
    ({ stack, apiKey }) =>
      stack.fetch('/api/capabilities/pii-redact/quote', {
        method: 'POST',
        apiKey,
        json: { input: { text: 'Mail jane@example.com' } },
      }),
  ],
  orchestrator: [
    ({ stack, apiKey }) =>
      stack.fetch('/api/capabilities/crt-batch-plan/run', {
        method: 'POST',
        apiKey,
        headers: { 'Idempotency-Key': randomUUID() },
        json: { input: { apexes: ['example.com'] } },
      }),
  ],
  uploads: [
    ({ stack, apiKey }) =>
      stack.fetch('/api/capabilities/pdf-extract-text/upload-session', {
        method: 'POST',
        apiKey,
        json: { input: { filename: 'probe.pdf', content_type: 'application/pdf', size_bytes: 1_000 } },
      }),
  ],
  vault: [({ stack }) => fetchHealth(`${stack.healthUrl('vault')}/readyz`)],
  dashboard: [({ stack }) => fetchHealth(`${stack.healthUrl('dashboard')}/readyz`)],
};

async function fetchHealth(url: string): Promise<FetchResult> {
  const response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: undefined, text };
}

/**
 * Services probed through their own readiness (their API is not JSON over the gateway, or their only
 * use of PostgreSQL is readiness): a lost database shows as "not ready", naming the check.
 */
export const READINESS_PROBED: ReadonlySet<DatabaseService> = new Set(['vault', 'dashboard']);

/** Runs every probe of a service once; the statuses in order. */
export async function probeStatuses(service: DatabaseService, context: ProbeContext): Promise<FetchResult[]> {
  const results: FetchResult[] = [];
  for (const probe of PROBES[service]) results.push(await probe(context));
  return results;
}

/** True when a status is a success. */
export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/**
 * Probes until every answer is a success (the service recovered by itself), at most `attempts`
 * times a second apart; the last answers.
 */
export async function probeUntilServed(
  service: DatabaseService,
  context: ProbeContext,
  attempts = 30,
): Promise<FetchResult[]> {
  let results: FetchResult[] = [];
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    results = await probeStatuses(service, context);
    if (results.every((result) => isSuccess(result.status))) return results;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return results;
}
