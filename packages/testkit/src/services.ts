import path from 'node:path';

/** Every process of the platform (docs/architecture.md "Processes"), in start-up order. */
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

/** Ports of one service in a stack. */
export interface ServicePorts {
  /** The gateway's public port (`PORT`): API, /healthz, /readyz. Undefined for other services. */
  port?: number;
  /** `HEALTH_PORT`: /healthz, /readyz, /metrics (the gateway's carries /metrics only). */
  healthPort: number;
}

/** `node --import tsx services/<name>/src/main.ts`, run with cwd = workspace root (no build step). */
export function serviceCommand(name: ServiceName): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: ['--import', 'tsx', path.join('services', name, 'src', 'main.ts')],
  };
}

/**
 * Where a harness asks /healthz and /readyz: the gateway answers them on its public PORT, every
 * other service on its HEALTH_PORT (architecture.md "Ports and process environment").
 */
export function probeBaseUrl(name: ServiceName, ports: ServicePorts): string {
  const port = name === 'gateway' ? ports.port : ports.healthPort;
  if (port === undefined) throw new Error(`${name} has no port to probe`);
  return `http://127.0.0.1:${port}`;
}

/** The env variables that carry a service's ports. */
export function portEnv(ports: ServicePorts): Record<string, string> {
  const env: Record<string, string> = { HEALTH_PORT: String(ports.healthPort) };
  if (ports.port !== undefined) env.PORT = String(ports.port);
  return env;
}
