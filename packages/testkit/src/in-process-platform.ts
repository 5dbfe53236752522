import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Bus,
  createInMemoryRpc,
  type InMemoryRpc,
  NESTED_CALL_MARGIN_MS,
  type ServiceClient,
  type ServiceClientOptions,
  type ServiceHandlers,
  serviceClient,
} from '@svc/bus';
import type { MessageCatalog } from '@svc/capabilities';
import { callsOtherServices, RPC_SERVICES, type RpcService } from '@svc/contracts';
import type { PrismaClient, StatementListener } from '@svc/db';
import { createLogger, type Logger } from '@svc/log';
import { createObjectStore, type ObjectStore } from '@svc/storage';
import { type CreateApiKeyOptions, createTestApiKey, type TestApiKey } from './api-keys';
import { createTestBus } from './test-bus';
import { createTestDatabase, type TestDatabase } from './test-database';

/** ms a platform client waits for an answer by default: a "down" service's 503 names it. */
export const IN_PROCESS_TIMEOUT_MS = 1_000;

/** Something the platform closes, in reverse order of registration. */
export interface OwnedResource {
  close(): Promise<void> | void;
}

/** What a service's handlers are built from, in one process: the platform's stores and clients. */
export interface InProcessContext {
  readonly prisma: PrismaClient;
  /** A real bus on the test Redis (its own prefix): jobs and events travel through Redis. */
  readonly bus: Bus<MessageCatalog>;
  /** Object storage shared by every service (a directory), as one bucket is in production. */
  readonly store: ObjectStore;
  readonly logger: Logger;
  /** A client of another service over the in-memory transport (what `serviceClient(bus, …)` is in main.ts). */
  client<S extends RpcService>(
    service: S,
    options?: ServiceClientOptions<MessageCatalog['rpc'][S]>,
  ): ServiceClient<MessageCatalog, S>;
  /** Closes `resource` with the platform (an HTTP server, a job consumer). */
  own(resource: OwnedResource): void;
}

/** Builds one service's real RPC handlers (its main.ts wiring, minus the process). */
export type InProcessService<S extends RpcService> = (
  context: InProcessContext,
) => ServiceHandlers<MessageCatalog, S> | Promise<ServiceHandlers<MessageCatalog, S>>;

/** The services a platform serves; a service left out answers like one that is down (503). */
export type InProcessServices = { readonly [S in RpcService]?: InProcessService<S> };

export interface StartInProcessPlatformOptions {
  services: InProcessServices;
  /** Database and Redis prefix label (lowercase letters, digits, _). */
  label?: string;
  /** ms clients wait by default (`client()`): IN_PROCESS_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Where the services log (default silent). */
  logger?: Logger;
  /** Told about every statement the services send (StatementCounter.observe). */
  onStatement?: StatementListener;
}

/**
 * What a test holds: the services' context (the same stores and clients; `client`'s `timeoutMs`
 * defaults to the platform's) and what only a test uses.
 */
export interface InProcessPlatform extends InProcessContext {
  /** The transport the services answer on: fault injection and recorded calls. */
  readonly rpc: InMemoryRpc<MessageCatalog>;
  readonly database: TestDatabase;
  /** A client (with its wallet rows when asked) and an API key, written into the platform's database. */
  createApiKey(options: CreateApiKeyOptions): Promise<TestApiKey>;
  /** Closes what the services own (newest first), the bus (its keys deleted), drops the database. */
  close(): Promise<void>;
}

/**
 * The platform's services in this process: each service's real RPC handlers, built by `services`
 * against a fresh test database (a copy of the migrated template, as integration suites use), a bus
 * on the test Redis under its own prefix and object storage in a temporary directory, answering on an
 * in-memory transport (@svc/bus `createInMemoryRpc`) that validates requests and answers with the
 * catalog's schemas and maps errors exactly as Redis RPC does. Tests get the same typed clients
 * main.ts wiring uses, so a port cannot disagree with the service behind it. One per suite: start
 * it in beforeAll, close it in afterAll.
 */
export async function startInProcessPlatform(
  options: StartInProcessPlatformOptions,
): Promise<InProcessPlatform> {
  const label = options.label ?? 'inproc';
  const logger = options.logger ?? createLogger({ service: 'in-process', level: 'silent' });
  const timeoutMs = options.timeoutMs ?? IN_PROCESS_TIMEOUT_MS;
  const owned: OwnedResource[] = [];
  const database = await createTestDatabase(
    label,
    options.onStatement === undefined ? {} : { onStatement: options.onStatement },
  );
  const testBus = createTestBus(label);
  const storeRoot = await mkdtemp(join(tmpdir(), `${label}-store-`));
  owned.push(testBus, { close: () => rm(storeRoot, { recursive: true, force: true }) });
  const rpc = createInMemoryRpc(testBus.bus.catalog, { logger });
  const store = createObjectStore({ driver: 'fs', root: storeRoot });
  const client = <S extends RpcService>(
    service: S,
    clientOptions?: ServiceClientOptions<MessageCatalog['rpc'][S]>,
  ) =>
    serviceClient(
      rpc,
      service,
      // As in production: a service that calls others is waited for NESTED_CALL_MARGIN_MS longer, so
      // its nested calls (bounded by the caller's deadline) keep their whole timeout.
      clientOptions ?? { timeoutMs: timeoutMs + (callsOtherServices(service) ? NESTED_CALL_MARGIN_MS : 0) },
    );
  const own = (resource: OwnedResource) => void owned.push(resource);
  const close = async () => {
    for (const resource of [...owned].reverse()) await resource.close();
    await database.drop();
  };
  const context: InProcessContext = { prisma: database.prisma, bus: testBus.bus, store, logger, client, own };
  try {
    for (const service of RPC_SERVICES) await serveService(service);
  } catch (err) {
    await close();
    throw err;
  }
  return {
    rpc,
    database,
    prisma: database.prisma,
    bus: testBus.bus,
    store,
    logger,
    client,
    createApiKey: (keyOptions) => createTestApiKey(database.prisma, keyOptions),
    own,
    close,
  };

  /** Builds a service's handlers, if it is one the platform serves, and serves them on the transport. */
  async function serveService<S extends RpcService>(service: S): Promise<void> {
    const build = options.services[service];
    if (build !== undefined) rpc.serve(service, await build(context));
  }
}
