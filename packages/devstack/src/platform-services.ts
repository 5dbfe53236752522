// The platform's processes (docs/architecture.md "Processes" and "Ports and process environment"):
// the one list that `pnpm start` (tools/launcher) and the test harness (@svc/testkit) both run.

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

/** HEALTH_PORT defaults (the gateway's carries /metrics only; its API is on PORT). */
export const DEFAULT_HEALTH_PORTS: Readonly<Record<ServiceName, number>> = {
  registry: 8081,
  wallet: 8082,
  orchestrator: 8083,
  uploads: 8084,
  vault: 8085,
  worker: 8086,
  gateway: 9080,
};

/** The gateway's `PORT` default: the public API, /healthz, /readyz and /openapi.json. */
export const DEFAULT_GATEWAY_PORT = 8080;

/**
 * The uploads service's `DATA_PORT` default: its internal HTTP server for upload bytes and artifact
 * downloads, which only the gateway calls (`UPLOADS_URL`); never exposed publicly.
 */
export const DEFAULT_UPLOADS_DATA_PORT = 8094;

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
  /** The gateway's public port (`PORT`): API, /healthz, /readyz. Undefined for other services. */
  port?: number;
  /** `HEALTH_PORT`: /healthz, /readyz, /metrics (the gateway's carries /metrics only). */
  healthPort: number;
  /** The uploads service's internal `DATA_PORT` (upload bytes, artifact downloads). Undefined for others. */
  dataPort?: number;
}

/** The env variables that carry a service's ports. */
export function portEnv(ports: ServicePorts): Record<string, string> {
  const env: Record<string, string> = { HEALTH_PORT: String(ports.healthPort) };
  if (ports.port !== undefined) env.PORT = String(ports.port);
  if (ports.dataPort !== undefined) env.DATA_PORT = String(ports.dataPort);
  return env;
}

/**
 * Where /healthz and /readyz are asked: the gateway answers them on its public PORT, every other
 * service on its HEALTH_PORT.
 */
export function probeBaseUrl(name: ServiceName, ports: ServicePorts): string {
  const port = name === 'gateway' ? ports.port : ports.healthPort;
  if (port === undefined) throw new Error(`${name} has no port to probe`);
  return `http://127.0.0.1:${port}`;
}
