import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DATA_PORT_SERVICES,
  dataUrlEnv,
  findWorkspaceRoot,
  freePort,
  platformService,
  portEnv,
  type ServiceName,
  type ServicePorts,
} from '@svc/devstack';
import { type CreateApiKeyOptions, createTestApiKey, type TestApiKey } from './api-keys';
import { ChildService, describeExit } from './child-service';
import { type DatabaseLinks, startDatabaseLinks } from './database-links';
import { type FetchResult, fetchFull, type StackFetchInit } from './http';
import { deleteKeysWithPrefix } from './redis-cleanup';
import type { StackApi } from './stack-api';
import type { TcpProxy } from './tcp-proxy';
import { testBusEncryptionKeys, testBusEncryptionKeyText } from './test-bus';
import { createTestDatabase, type TestDatabase } from './test-database';

const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
// ms: first start of a `tsx` process compiles its imports; several at once on 2 cores take a while.
const DEFAULT_START_TIMEOUT_MS = 30_000;
// ms: services bound their own shutdown by SHUTDOWN_TIMEOUT_MS (10 s default); SIGKILL after this.
const DEFAULT_STOP_TIMEOUT_MS = 15_000;

export interface StartTestStackOptions {
  /** Services to run, each as its own process (start-up runs them in parallel). */
  services: readonly ServiceName[];
  /** Extra env for every service, applied last (e.g. `{ RPC_TIMEOUT_MS: '500' }`). */
  env?: Record<string, string>;
  /** Do not print the output of crashed services at close() (for tests that crash them on purpose). */
  quiet?: boolean;
  /**
   * Services that reach PostgreSQL through a TCP proxy of their own, which `databaseLink(name)`
   * can cut: a database outage for those services only (database-links.ts).
   */
  databaseProxyFor?: readonly ServiceName[];
  /** ms until a service must answer /healthz and /readyz (default 30 000). */
  startTimeoutMs?: number;
  /** ms between SIGTERM and SIGKILL in stop() and close() (default 15 000). */
  stopTimeoutMs?: number;
  /** Also append each service's output to `<logDir>/<name>.log` (the shared stack: sharedTestStack). */
  logDir?: string;
  /**
   * Extra `--import` modules per service (the fault suites' execution probe in workers). A service
   * given some runs its sources under tsx; the others run the prebuilt bundles when the integration
   * set-up made them (service-bundles.ts).
   */
  nodeImports?: Partial<Record<ServiceName, readonly string[]>>;
  /** Every service ends when this process dies (@svc/devstack parent-watch.ts): the shared stack. */
  parentWatch?: boolean;
}

export interface StartReplicaOptions {
  /** Env on top of the service's (e.g. `{ WORKER_RUNTIMES: 'browser' }` for a worker of another pool). */
  env?: Record<string, string>;
}

/** One more process of a stack's service, started by TestStack.startReplica. */
export interface StackReplica {
  readonly name: ServiceName;
  /** The replica's pid; undefined once it has exited. */
  readonly pid: number | undefined;
  /** Base URL of its own health server (a fresh HEALTH_PORT): /healthz, /readyz, /metrics. */
  readonly healthUrl: string;
  /** All stdout+stderr of the replica so far. */
  logs(): string;
  /** SIGTERM, wait (SIGKILL after the stop timeout); the exit code (null when ended by a signal). */
  stop(): Promise<number | null>;
}

/** A private platform: the API of StackApi plus control over its processes. */
export interface TestStack extends StackApi {
  /** The database proxy of a service listed in `databaseProxyFor` (cut() = its PostgreSQL is down). */
  databaseLink(name: ServiceName): TcpProxy;
  /** Sends a signal (default SIGKILL) and waits for the exit. */
  kill(name: ServiceName, signal?: NodeJS.Signals): Promise<void>;
  /** SIGTERM, wait (SIGKILL after the stop timeout); the exit code (null when ended by a signal). */
  stop(name: ServiceName): Promise<number | null>;
  /** Spawns a stopped service again, same env and ports, and waits until it is ready. */
  start(name: ServiceName): Promise<void>;
  /**
   * Starts one more process of a running service with the same env but its own free HEALTH_PORT
   * (e.g. a second worker on the same queues), ready when this resolves; close() stops it too.
   * Not for the gateway (its public PORT is the stack's one address).
   */
  startReplica(name: ServiceName, options?: StartReplicaOptions): Promise<StackReplica>;
  /** Stops every service, drops the database, deletes the prefix's Redis keys. Idempotent. */
  close(): Promise<void>;
}

/** `count` free ports (freePort never hands the same one out twice in a process). */
async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

class Stack implements TestStack {
  readonly gatewayUrl: string;
  readonly databaseUrl: string;
  private closing: Promise<void> | undefined;
  /** Extra processes from startReplica(), stopped with the other non-gateway services. */
  private readonly replicas: ChildService[] = [];
  readonly busEncryptionKeys = testBusEncryptionKeys();

  constructor(
    private readonly database: TestDatabase,
    readonly redisUrl: string,
    readonly prefix: string,
    private readonly services: Map<ServiceName, ChildService>,
    private readonly ports: Map<ServiceName, ServicePorts>,
    private readonly options: StartTestStackOptions,
    /** The fs adapter's root for this stack (STORAGE_DIR): tests may look inside; removed by close(). */
    readonly storageDir: string,
    private readonly databaseLinks: DatabaseLinks,
  ) {
    this.gatewayUrl = `http://127.0.0.1:${ports.get('gateway')?.port ?? 0}`;
    this.databaseUrl = database.url;
  }

  private service(name: ServiceName): ChildService {
    const service = this.services.get(name);
    if (service === undefined) throw new Error(`${name} is not part of this test stack`);
    return service;
  }

  private get startTimeoutMs(): number {
    return this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  }

  private get stopTimeoutMs(): number {
    return this.options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;
  }

  /** Starts the given services in parallel; on failure the error quotes every crashed service. */
  async startAll(names: readonly ServiceName[]): Promise<void> {
    const results = await Promise.allSettled(
      names.map((name) => this.service(name).start(this.startTimeoutMs)),
    );
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    if (failures.length > 0) {
      const messages = failures.map((err) => (err instanceof Error ? err.message : String(err)));
      throw new Error(`test stack did not start:\n${messages.join('\n\n')}${this.crashReport()}`);
    }
  }

  databaseLink(name: ServiceName): TcpProxy {
    const link = this.databaseLinks.get(name);
    if (link === undefined) throw new Error(`${name} was not started with a database proxy`);
    return link.proxy;
  }

  healthUrl(name: ServiceName): string {
    const ports = this.ports.get(name);
    if (ports === undefined) throw new Error(`${name} is not part of this test stack`);
    return `http://127.0.0.1:${ports.healthPort}`;
  }

  pid(name: ServiceName): number | undefined {
    return this.service(name).pid;
  }

  logs(name: ServiceName): string {
    return this.service(name).logs();
  }

  async kill(name: ServiceName, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    await this.service(name).signal(signal, this.stopTimeoutMs);
  }

  async stop(name: ServiceName): Promise<number | null> {
    return (await this.service(name).signal('SIGTERM', this.stopTimeoutMs)).code;
  }

  async start(name: ServiceName): Promise<void> {
    const service = this.service(name);
    try {
      await service.start(this.startTimeoutMs);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new Error(`${message}${this.crashReport()}`);
    }
  }

  async startReplica(name: ServiceName, options: StartReplicaOptions = {}): Promise<StackReplica> {
    if (platformService(name).publicPort !== undefined)
      throw new Error(`the ${name} cannot be replicated: its PORT is the stack's address`);
    const [healthPort] = await distinctFreePorts(1);
    if (healthPort === undefined) throw new Error('no free port for the replica');
    // A replica of a service with a data port (uploads) gets its own (the gateway keeps the first one's).
    const dataPort = platformService(name).dataPort === undefined ? undefined : 0;
    const replica = this.service(name).withPorts(
      dataPort === undefined ? { healthPort } : { healthPort, dataPort },
      options.env,
    );
    this.replicas.push(replica);
    try {
      await replica.start(this.startTimeoutMs);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new Error(`replica of ${message}${this.crashReport()}`);
    }
    const stopTimeoutMs = this.stopTimeoutMs;
    return {
      name,
      get pid() {
        return replica.pid;
      },
      healthUrl: `http://127.0.0.1:${healthPort}`,
      logs: () => replica.logs(),
      stop: async () => (await replica.signal('SIGTERM', stopTimeoutMs)).code,
    };
  }

  createApiKey(options: CreateApiKeyOptions): Promise<TestApiKey> {
    return createTestApiKey(this.database.prisma, options);
  }

  fetch(path: string, init?: StackFetchInit): Promise<FetchResult> {
    if (!this.services.has('gateway')) throw new Error('the gateway is not part of this test stack');
    return fetchFull(`${this.gatewayUrl}${path}`, init);
  }

  /** Output of every service that crashed since the last report, or ''. */
  private crashReport(): string {
    const parts: string[] = [];
    const all = [
      ...[...this.services.values()].map((service) => ({ service, label: service.name })),
      ...this.replicas.map((service) => ({ service, label: `${service.name} (replica)` })),
    ];
    for (const { service, label } of all) {
      const exits = service.takeUnreportedExits();
      if (exits.length === 0) continue;
      const how = exits.map(describeExit).join(', ');
      parts.push(`\n--- ${label} exited unexpectedly (${how}); its output:\n${service.tail()}`);
    }
    return parts.join('\n');
  }

  close(): Promise<void> {
    this.closing ??= this.closeAll(!this.options.quiet);
    return this.closing;
  }

  /** close() after a failed start: the thrown error already quotes the crashed services. */
  abandon(): Promise<void> {
    this.closing ??= this.closeAll(false);
    return this.closing;
  }

  private async closeAll(printCrashes: boolean): Promise<void> {
    const report = this.crashReport();
    const errors: unknown[] = [];
    const settle = async (task: Promise<unknown>): Promise<void> => {
      try {
        await task;
      } catch (err) {
        errors.push(err);
      }
    };
    // The gateway first, so no request fans out to a service that is already going away.
    const gateway = this.services.get('gateway');
    if (gateway !== undefined) await settle(gateway.signal('SIGTERM', this.stopTimeoutMs));
    const rest = [...this.services.values(), ...this.replicas].filter((service) => service !== gateway);
    await Promise.all(rest.map((service) => settle(service.signal('SIGTERM', this.stopTimeoutMs))));
    await Promise.all([
      settle(this.database.drop()),
      settle(deleteKeysWithPrefix(this.redisUrl, this.prefix)),
      settle(rm(this.storageDir, { recursive: true, force: true })),
      ...[...this.databaseLinks.values()].map((link) => settle(link.proxy.close())),
    ]);
    if (report !== '' && printCrashes) {
      process.stderr.write(`[testkit] services crashed during the test:${report}\n`);
    }
    if (errors.length > 0) throw new AggregateError(errors, 'test stack did not close cleanly');
  }
}

/**
 * A private copy of the platform for one test suite: a fresh migrated database on the server of
 * TEST_DATABASE_ADMIN_URL, a fresh bus prefix on TEST_REDIS_URL, and each requested service as a
 * real child process (`node --import tsx services/<name>/src/main.ts`) on free ports, ready when
 * this resolves. Always `close()` it (afterAll).
 */
export async function startTestStack(options: StartTestStackOptions): Promise<TestStack> {
  const redisUrl = process.env.TEST_REDIS_URL ?? DEFAULT_REDIS_URL;
  const rootDir = findWorkspaceRoot(__dirname);
  const names = [...new Set(options.services)];
  const prefix = `t${randomBytes(6).toString('hex')}`;
  const database = await createTestDatabase('t');

  // One extra port for the gateway's PORT and one per internal DATA_PORT (the uploads service's,
  // the dashboard's), which the others reach as UPLOADS_URL and DASHBOARD_URL (stated even when
  // that service is not part of the stack: a closed port → 503).
  const free = await distinctFreePorts(names.length + 1 + DATA_PORT_SERVICES.length);
  const ports = new Map<ServiceName, ServicePorts>();
  const services = new Map<ServiceName, ChildService>();
  const dataPorts: Partial<Record<ServiceName, number>> = {};
  for (const name of DATA_PORT_SERVICES) dataPorts[name] = free.pop() ?? 0;
  // Object storage of the stack (fs adapter unless options.env says s3), removed by close().
  const storageDir = await mkdtemp(join(tmpdir(), 'svc-objects-'));
  const databaseLinks = await startDatabaseLinks(options.databaseProxyFor ?? [], database.url);
  const shared: Record<string, string> = {
    STORAGE_DRIVER: 'fs',
    STORAGE_DIR: storageDir,
    ...dataUrlEnv(dataPorts),
    ARTIFACT_LINK_SECRET: randomBytes(32).toString('base64url'),
    // Seals everything the bus writes to Redis; the same key as this process's test buses.
    BUS_ENCRYPTION_KEY: testBusEncryptionKeyText(),
    // The vault's keyring (docs/decisions.md "The vault"): one random key-encryption key per stack.
    VAULT_KEYRING: JSON.stringify({
      current: 1,
      keys: [{ version: 1, key: randomBytes(32).toString('base64') }],
    }),
  };
  for (const name of names) {
    const servicePorts: ServicePorts = { healthPort: free.pop() ?? 0 };
    // Which ports a service takes comes from the one service list (@svc/devstack PLATFORM_SERVICES).
    if (platformService(name).publicPort !== undefined) servicePorts.port = free.pop() ?? 0;
    const dataPort = dataPorts[name];
    if (dataPort !== undefined) servicePorts.dataPort = dataPort;
    ports.set(name, servicePorts);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: databaseLinks.get(name)?.url ?? database.url,
      REDIS_URL: redisUrl,
      BUS_PREFIX: prefix,
      LOG_LEVEL: 'info',
      RPC_TIMEOUT_MS: '3000', // ms, the services' own default, stated so tests can rely on it
      // Suites send bursts from one key and one address: the gateway's rate limits scaled out of
      // their way (the limiter still runs). The rate-limit suite sets realistic values.
      RATE_LIMIT_MULTIPLIER: '1000',
      ...shared,
      ...portEnv(servicePorts),
      ...options.env,
    };
    const logFile = options.logDir === undefined ? undefined : join(options.logDir, `${name}.log`);
    services.set(
      name,
      new ChildService({
        name,
        rootDir,
        env,
        ports: servicePorts,
        ...(logFile === undefined ? {} : { logFile }),
        ...(options.nodeImports?.[name] === undefined ? {} : { nodeImports: options.nodeImports[name] }),
        ...(options.parentWatch === undefined ? {} : { parentWatch: options.parentWatch }),
      }),
    );
  }

  const stack = new Stack(database, redisUrl, prefix, services, ports, options, storageDir, databaseLinks);
  try {
    await stack.startAll(names);
  } catch (err) {
    await stack.abandon().catch(() => undefined);
    throw err;
  }
  return stack;
}
