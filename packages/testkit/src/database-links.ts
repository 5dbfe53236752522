import type { ServiceName } from '@svc/devstack';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

/** A service's own way to PostgreSQL: the proxy and the DATABASE_URL that goes through it. */
export interface DatabaseLink {
  proxy: TcpProxy;
  url: string;
}

export type DatabaseLinks = ReadonlyMap<ServiceName, DatabaseLink>;

/**
 * One TCP proxy per named service in front of the server of `databaseUrl`: the test stack gives
 * each of those services the proxied URL, so cutting a proxy is a database outage for that service
 * alone (the test's own connections and the other services' go straight to PostgreSQL).
 */
export async function startDatabaseLinks(
  names: readonly ServiceName[],
  databaseUrl: string,
): Promise<DatabaseLinks> {
  const target = new URL(databaseUrl);
  const host = target.hostname === 'localhost' ? '127.0.0.1' : target.hostname;
  const port = Number(target.port || 5432); // PostgreSQL's default port
  const links = new Map<ServiceName, DatabaseLink>();
  for (const name of new Set(names)) {
    const proxy = await startTcpProxy({ host, port });
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    links.set(name, { proxy, url: url.toString() });
  }
  return links;
}
