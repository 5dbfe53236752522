// The platform's processes (docs/architecture.md "Processes" and "Ports and process environment"):
// the one list that `pnpm start` (tools/launcher), the test stacks (@svc/testkit: private ones and
// the shared one) and the operator CLI run or read. What is written elsewhere is generated from it
// or checked against it by a test:
// - docker-compose.yml (test/compose.test.ts);
// - each service's env.ts port defaults and `defineService` needs (tools/docs-gen/test/service-list.test.ts);
// - the PostgreSQL schemas of packages/db/prisma/schema.prisma (tools/docs-gen/test/db-schemas.test.ts);
// - the services tables of README.md, docs/architecture.md and docs/db.md (`pnpm docs:generate`).
// Adding a service: its entry here, in SERVICE_NAMES and STOP_ORDER, then run the tests above.

/** Every service, in start-up order. */
export const SERVICE_NAMES = [
  'registry',
  'wallet',
  'orchestrator',
  'uploads',
  'vault',
  'worker',
  'gateway',
  'dashboard',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** What the platform must provide a service before it starts, and the ports it listens on. */
export interface PlatformService {
  /** `HEALTH_PORT` default: /healthz, /readyz, /metrics (the gateway's carries /metrics only). */
  readonly healthPort: number;
  /** Holds PostgreSQL connections: DATABASE_URL, and the schema migrated before it starts. */
  readonly database: boolean;
  /**
   * The PostgreSQL schema whose tables this service owns (schema.prisma `@@schema`): no other
   * service reads them, it asks this one over the bus. At most one service owns a schema.
   */
  readonly ownsSchema?: string;
  /** Reads or writes object storage (STORAGE_DRIVER, STORAGE_DIR, S3_*). */
  readonly objectStore: boolean;
  /**
   * `PORT` default of a public service: its API, and /healthz and /readyz, which are probed there
   * instead of on HEALTH_PORT. Only the gateway has one.
   */
  readonly publicPort?: number;
  /** `DATA_PORT` default of an internal HTTP server other services call (never public). */
  readonly dataPort?: number;
  /** The variable through which the others reach that server (`UPLOADS_URL`), with a dataPort. */
  readonly dataUrlVariable?: string;
  /** Services that must be ready before this one starts (compose `depends_on: service_healthy`). */
  readonly waitsFor: readonly ServiceName[];
}

/**
 * The platform's services (docs/architecture.md "Ports"), read by the launcher, the test stacks and
 * the compose check (packages/devstack/test/compose.test.ts). What a service declares to
 * `defineService` (@svc/service-kit) matches its `database` and `objectStore` here (a test reads
 * each main.ts); every service needs the bus (Redis).
 */
export const PLATFORM_SERVICES = {
  registry: { healthPort: 8081, database: true, ownsSchema: 'registry', objectStore: false, waitsFor: [] },
  wallet: { healthPort: 8082, database: true, ownsSchema: 'wallet', objectStore: false, waitsFor: [] },
  orchestrator: {
    healthPort: 8083,
    database: true,
    ownsSchema: 'orchestrator',
    objectStore: false,
    waitsFor: [],
  },
  // DATA_PORT: upload bytes and artifact downloads, which only the gateway calls (`UPLOADS_URL`).
  uploads: {
    healthPort: 8084,
    database: true,
    ownsSchema: 'uploads',
    objectStore: true,
    dataPort: 8094,
    dataUrlVariable: 'UPLOADS_URL',
    waitsFor: [],
  },
  vault: { healthPort: 8085, database: true, ownsSchema: 'vault', objectStore: true, waitsFor: [] },
  // Stateless: jobs from Redis, files from object storage.
  worker: { healthPort: 8086, database: false, objectStore: true, waitsFor: [] },
  // The public API on PORT; it starts once the services it calls answer. Owns the API keys and
  // their clients.
  gateway: {
    healthPort: 9080,
    database: true,
    ownsSchema: 'auth',
    objectStore: false,
    publicPort: 8080,
    waitsFor: ['registry', 'wallet', 'orchestrator', 'uploads', 'vault'],
  },
  // The developer dashboard (issue 24): its pages on DATA_PORT, which only the gateway calls
  // (`DASHBOARD_URL`: the gateway proxies its origin's /dashboard there). Owns the people side:
  // accounts and sessions.
  dashboard: {
    healthPort: 8087,
    database: true,
    ownsSchema: 'dashboard',
    objectStore: false,
    dataPort: 8095,
    dataUrlVariable: 'DASHBOARD_URL',
    waitsFor: [],
  },
} as const satisfies Readonly<Record<ServiceName, PlatformService>>;

/** The services that hold PostgreSQL connections (`database: true`), as a type. */
export type DatabaseServiceName = {
  [N in ServiceName]: (typeof PLATFORM_SERVICES)[N]['database'] extends true ? N : never;
}[ServiceName];

/** The services that hold PostgreSQL connections, in start-up order. */
export const DATABASE_SERVICE_NAMES: readonly DatabaseServiceName[] = SERVICE_NAMES.filter(
  (name): name is DatabaseServiceName => PLATFORM_SERVICES[name].database,
);

/** The service that owns a PostgreSQL schema, or undefined. */
export function schemaOwner(schema: string): ServiceName | undefined {
  return SERVICE_NAMES.find((name) => platformService(name).ownsSchema === schema);
}

/** One service's entry of PLATFORM_SERVICES, with the optional ports typed for any name. */
export function platformService(name: ServiceName): PlatformService {
  return PLATFORM_SERVICES[name];
}

/** HEALTH_PORT defaults, by service. */
export const DEFAULT_HEALTH_PORTS: Readonly<Record<ServiceName, number>> = Object.fromEntries(
  SERVICE_NAMES.map((name) => [name, PLATFORM_SERVICES[name].healthPort]),
) as Record<ServiceName, number>;

/** The gateway's `PORT` default: the public API, /healthz, /readyz and /openapi.json. */
export const DEFAULT_GATEWAY_PORT = PLATFORM_SERVICES.gateway.publicPort;

/** The uploads service's `DATA_PORT` default (its internal HTTP server; `UPLOADS_URL` of the gateway). */
export const DEFAULT_UPLOADS_DATA_PORT = PLATFORM_SERVICES.uploads.dataPort;

/** The dashboard's `DATA_PORT` default (its pages; `DASHBOARD_URL` of the gateway). */
export const DEFAULT_DASHBOARD_DATA_PORT = PLATFORM_SERVICES.dashboard.dataPort;

/** The services with an internal HTTP server (a dataPort), in start-up order. */
export const DATA_PORT_SERVICES: readonly ServiceName[] = SERVICE_NAMES.filter(
  (name) => platformService(name).dataPort !== undefined,
);

/**
 * The variables through which the services reach each other's internal HTTP servers, for the data
 * ports chosen (`{ UPLOADS_URL: 'http://127.0.0.1:8094', DASHBOARD_URL: … }`): every process gets
 * all of them, so a service that is not started is a closed port (503), never an unset variable.
 */
export function dataUrlEnv(
  dataPorts: Readonly<Partial<Record<ServiceName, number>>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of DATA_PORT_SERVICES) {
    const variable = platformService(name).dataUrlVariable;
    const port = dataPorts[name];
    if (variable !== undefined && port !== undefined) env[variable] = `http://127.0.0.1:${port}`;
  }
  return env;
}

/**
 * Shutdown order, one group at a time (each group in parallel): the gateway (and the dashboard
 * behind it) first so no new request enters, then the workers so no job is half-run when its services go, then the rest.
 */
export const STOP_ORDER: readonly (readonly ServiceName[])[] = [
  ['gateway', 'dashboard'],
  ['worker'],
  ['orchestrator', 'uploads', 'vault', 'registry', 'wallet'],
];

/**
 * A service's entry point relative to the workspace root; it runs as `node --import tsx <entry>`
 * with cwd = the workspace root (no build step).
 */
export function serviceEntry(name: ServiceName): string {
  return `services/${name}/src/main.ts`;
}

/** Ports of one running service. */
export interface ServicePorts {
  /** The public port (`PORT`, the gateway's): API, /healthz, /readyz. Undefined for other services. */
  port?: number;
  /** `HEALTH_PORT`: /healthz, /readyz, /metrics (the gateway's carries /metrics only). */
  healthPort: number;
  /** The internal `DATA_PORT` (uploads: upload bytes, artifact downloads; dashboard: its pages). Undefined for others. */
  dataPort?: number;
}

/** The ports one deployment chose (free ports in tests, the launcher's settings). */
export interface ChosenPorts {
  healthPort: number;
  /** Used only by a service with a publicPort. */
  publicPort: number;
  /** Used only by a service with a dataPort. */
  dataPort: number;
}

/** The ports `name` listens on, out of those chosen: PORT and DATA_PORT only where it has them. */
export function servicePorts(name: ServiceName, chosen: ChosenPorts): ServicePorts {
  const service = platformService(name);
  const ports: ServicePorts = { healthPort: chosen.healthPort };
  if (service.publicPort !== undefined) ports.port = chosen.publicPort;
  if (service.dataPort !== undefined) ports.dataPort = chosen.dataPort;
  return ports;
}

/** The env variables that carry a service's ports. */
export function portEnv(ports: ServicePorts): Record<string, string> {
  const env: Record<string, string> = { HEALTH_PORT: String(ports.healthPort) };
  if (ports.port !== undefined) env.PORT = String(ports.port);
  if (ports.dataPort !== undefined) env.DATA_PORT = String(ports.dataPort);
  return env;
}

/**
 * Where /healthz and /readyz are asked: a public service (the gateway) answers them on its PORT,
 * every other service on its HEALTH_PORT.
 */
export function probeBaseUrl(name: ServiceName, ports: ServicePorts): string {
  const port = platformService(name).publicPort === undefined ? ports.healthPort : ports.port;
  if (port === undefined) throw new Error(`${name} has no port to probe`);
  return `http://127.0.0.1:${port}`;
}
