// The processes `pnpm start` runs and their default ports (docs/architecture.md "Ports and process
// environment"). Every one is started as `node --import tsx services/<name>/src/main.ts`.

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

/** HEALTH_PORT defaults (the gateway's carries /metrics only; its API is on PORT, default 8080). */
export const DEFAULT_HEALTH_PORTS: Record<ServiceName, number> = {
  registry: 8081,
  wallet: 8082,
  orchestrator: 8083,
  uploads: 8084,
  vault: 8085,
  worker: 8086,
  gateway: 9080,
};

/**
 * Shutdown order, one group at a time (each group in parallel): the gateway first so no new
 * request enters, then the workers so no job is half-run when its services go, then the rest.
 */
export const STOP_ORDER: readonly (readonly ServiceName[])[] = [
  ['gateway'],
  ['worker'],
  ['orchestrator', 'uploads', 'vault', 'registry', 'wallet'],
];

/** `--import tsx` then the watchdog that ends a service whose launcher died (see parent-watch.ts). */
export function serviceArgs(name: ServiceName, parentWatchPath: string): string[] {
  return ['--import', 'tsx', '--import', parentWatchPath, `services/${name}/src/main.ts`];
}
