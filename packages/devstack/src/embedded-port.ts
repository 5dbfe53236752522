import fs from 'node:fs';
import path from 'node:path';
import { canListen, freePort, tcpAnswers } from './net';

/**
 * Which port the embedded PostgreSQL listens on (issue 23: it always took 5433, so a machine with
 * a second Debian cluster there could not start). An asked-for port must be free; otherwise the
 * port this data directory ran on before, else the default, else the next free one above it. The
 * port a cluster ran on is kept in a file of its data directory, so its URL stays the same from one
 * start to the next.
 */

/** In the cluster's data directory; PostgreSQL ignores files it does not know. */
const PORT_FILE = 'capability-service-port';
/** How many ports above the default are tried before any free port is taken. */
const NEARBY_PORTS = 20;

export interface PortChoice {
  port: number;
  /** Why it is not the default, for the log and the ready banner; undefined when it is. */
  note?: string;
}

export interface ChoosePortOptions {
  /** The cluster's data directory (where the port it ran on is remembered). */
  dataDir: string;
  /** A port the operator asked for: used as is, or an error naming `portVariable` when taken. */
  port?: number;
  /** The port a cluster with nothing remembered tries first (5433). */
  defaultPort: number;
  /** The setting `port` came from, named in errors (e.g. `EMBEDDED_POSTGRES_PORT`). */
  portVariable?: string;
}

/** Free on the loopback address the server binds: nothing answers there, and we can bind it. */
async function isFree(port: number): Promise<boolean> {
  return !(await tcpAnswers('127.0.0.1', port)) && (await canListen(port, '127.0.0.1'));
}

/** The port remembered for this data directory, if any (a bad file counts as none). */
export function rememberedPort(dataDir: string): number | undefined {
  try {
    const value = Number(fs.readFileSync(path.join(dataDir, PORT_FILE), 'utf8').trim());
    return Number.isInteger(value) && value > 0 && value < 65_536 ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers the port a cluster runs on (called once it is up: the directory is a cluster then). */
export function rememberPort(dataDir: string, port: number): void {
  fs.writeFileSync(path.join(dataDir, PORT_FILE), `${port}\n`, { mode: 0o600 });
}

export async function chooseEmbeddedPort(options: ChoosePortOptions): Promise<PortChoice> {
  const { port, defaultPort } = options;
  if (port !== undefined) {
    if (await isFree(port)) return { port }; // asked for: nothing to explain
    const variable = options.portVariable;
    throw new Error(
      `cannot start the embedded PostgreSQL: port ${port} on 127.0.0.1 is already in use by another process. ` +
        `Stop that process, ${variable === undefined ? 'choose another port' : `set ${variable} to another port (or unset it: a free one is then chosen)`}, ` +
        'or point DATABASE_URL at a running PostgreSQL.',
    );
  }
  const remembered = rememberedPort(options.dataDir);
  const first = remembered ?? defaultPort;
  if (await isFree(first)) {
    return first === defaultPort
      ? { port: first }
      : { port: first, note: `port ${first}, kept for this data directory` };
  }
  const note = (chosen: number): string =>
    `${first} is in use by another process: port ${chosen}, kept for this data directory` +
    `${options.portVariable === undefined ? '' : `; ${options.portVariable} chooses another`}`;
  // The default again (a remembered port may be the one taken), then the ones just above it.
  const nearby = Array.from({ length: NEARBY_PORTS + 1 }, (_, offset) => defaultPort + offset);
  for (const candidate of nearby) {
    if (candidate !== first && (await isFree(candidate))) return { port: candidate, note: note(candidate) };
  }
  const any = await freePort();
  return { port: any, note: note(any) };
}
