import type { ServiceName } from '@svc/devstack';
import type { CreateApiKeyOptions, TestApiKey } from './api-keys';
import type { FetchResult, StackFetchInit } from './http';

/**
 * What a suite that only calls the platform's API uses of a running platform: its addresses, its
 * database and bus prefix, its services' output, and helpers to make clients and send requests.
 * Both a private stack (startTestStack) and the shared one (sharedTestStack) offer it; the support
 * helpers of the API suites take this type so they work with either.
 */
export interface StackApi {
  /** `http://127.0.0.1:<PORT>` of the gateway. */
  readonly gatewayUrl: string;
  /** The stack's own migrated database (`t_<random>`). */
  readonly databaseUrl: string;
  readonly redisUrl: string;
  /** The stack's BUS_PREFIX (`t<random>`): every Redis key of its services starts with `<prefix>:`. */
  readonly prefix: string;
  /** The keys of its services' BUS_ENCRYPTION_KEY: a test's own bus on `prefix` passes them to createBus. */
  readonly busEncryptionKeys: readonly Uint8Array[];
  /** STORAGE_DIR of the stack's fs object store (a temp dir, removed when the stack closes). */
  readonly storageDir: string;
  /** Base URL of a service's health server (HEALTH_PORT): /healthz, /readyz, /metrics. */
  healthUrl(name: ServiceName): string;
  /** The pid of a service's current process; undefined while it is not running. */
  pid(name: ServiceName): number | undefined;
  /** All stdout+stderr of a service so far (across restarts), as one string. */
  logs(name: ServiceName): string;
  /** A new client with one key (a fresh random client name unless `clientName` is given). */
  createApiKey(options: CreateApiKeyOptions): Promise<TestApiKey>;
  /** A request to the gateway: `fetch('/api/capabilities?q=crt', { apiKey })`. */
  fetch(path: string, init?: StackFetchInit): Promise<FetchResult>;
}
