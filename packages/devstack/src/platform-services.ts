// The platform's processes (docs/architecture.md "Processes" and "Ports and process environment"):
// the one list that `pnpm start` (tools/launcher) and the test harness (@svc/testkit) both run, and
// that docker-compose.yml is checked against (test/compose.test.ts).

/** Every service, in start-up order. */
export const SERVICE_NAMES = [
  'registry',
  'wallet',
  'orchestrator',
  'uploads',
  'vault',
  'worker',
  'gateway',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** What the platform must provide a service before it starts, and the ports it listens on. */
export interface PlatformService {
  /** `HEALTH_PORT` default: /healthz, /readyz, /metrics (the gateway's carries /metrics only). */
  readonly healthPort: number;
  /** Holds PostgreSQL connections: DATABASE_URL, and the schema migrated before it starts. */
  readonly database: boolean;
  /** Reads or writes object storage (STORAGE_DRIVER, STORAGE_DIR, S3_*). */
  readonly objectStore: boolean;
  /**
   * `PORT` default of a public service: its API, and /healthz and /readyz, which are probed there
   * instead of on HEALTH_PORT. Only the gateway has one.
   */
  readonly publicPort?: number;
  /** `DATA_PORT` default of an internal HTTP server other services call (never public). */
  readonly dataPort?: number;
  /** Services that must be ready before this one starts (compose `depends_on: service_healthy`). */
  readonly waitsFor: readonly ServiceName[];
}

/**
 * The platform's services (docs/architecture.md "Ports"), read by the launcher, the test stacks and
 * the compose check (packages/devstack/test/compose.test.ts). What a service declares to
 * `defineService` (@svc/service-kit) matches its `database` and `objectStore` here; every service
 * needs the bus (Redis).
 */
export const PLATFORM_SERVICES = {
  registry: { healthPort: 8081, database: true, objectStore: false, waitsFor: [] },
  wallet: { healthPort: 8082, database: true, objectStore: false, waitsFor: [] },
  orchestrator: { healthPort: 8083, database: true, objectStore: false, waitsFor: [] },
  // DATA_PORT: upload bytes and artifact downloads, which only the gateway calls (`UPLOADS_URL`).
  uploads: { healthPort: 8084, database: true, objectStore: true, dataPort: 8094, waitsFor: [] },
  vault: { healthPort: 8085, database: true, objectStore: true, waitsFor: [] },
  // Stateless: jobs from Redis, files from object storage.
  worker: { healthPort: 8086, database: false, objectStore: true, waitsFor: [] },
  // The public API on PORT; it starts once the services it calls answer.
  gateway: {
    healthPort: 9080,
    database: true,
    objectStore: false,
    publicPort: 8080,
    waitsFor: ['registry', 'wallet', 'orchestrator', 'uploads', 'vault'],
  },
} as const satisfies Readonly<Record<ServiceName, PlatformService>>;

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

/**
 * Shutdown order, one group at a time (each group in parallel): the gateway first so no new
 * request enters, then the workers so no job is half-run when its services go, then the rest.
 */
export const STOP_ORDER: readonly (readonly ServiceName[])[] = [
  ['gateway'],
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
  /** The internal `DATA_PORT` (the uploads service's: upload bytes, artifact downloads). Undefined for others. */
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
