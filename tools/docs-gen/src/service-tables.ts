import type { PlatformService } from '@svc/devstack';
import { code, table } from './markdown';

/**
 * The services table of docs/architecture.md ("Processes") and README.md ("Architecture"), from
 * the one service list (@svc/devstack PLATFORM_SERVICES) and the RPC catalog.
 */

export interface ServiceRow {
  name: string;
  entry: string;
  service: PlatformService;
  /** Whether the RPC catalog has methods this service answers. */
  answersRpc: boolean;
}

/** How the RPC request list of a service is named (@svc/bus names.ts). */
export type RpcListName = (service: string) => string;

function portsText(service: PlatformService): string {
  return [
    service.publicPort === undefined ? undefined : `${code('PORT')} ${service.publicPort} (public API)`,
    `${code('HEALTH_PORT')} ${service.healthPort}`,
    service.dataPort === undefined ? undefined : `${code('DATA_PORT')} ${service.dataPort} (internal)`,
  ]
    .filter((part) => part !== undefined)
    .join(', ');
}

function databaseText(service: PlatformService): string {
  if (service.ownsSchema !== undefined) return `schema ${code(service.ownsSchema)}`;
  return service.database ? `${code('DATABASE_URL')}, no schema of its own` : '—';
}

/** The `services` region: one row per service, in start-up order. */
export function servicesRegion(rows: readonly ServiceRow[], rpcList: RpcListName): string {
  return table(
    [
      'service',
      'entry point',
      'ports (default)',
      'PostgreSQL',
      'object storage',
      'RPC requests',
      'starts after',
    ],
    rows.map((row) => [
      row.name,
      code(row.entry),
      portsText(row.service),
      databaseText(row.service),
      row.service.objectStore ? 'yes' : '—',
      row.answersRpc ? code(rpcList(row.name)) : '—',
      row.service.waitsFor.length === 0 ? '—' : row.service.waitsFor.join(', '),
    ]),
  );
}
