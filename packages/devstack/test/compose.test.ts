// docker-compose.yml against the one service list (src/platform-services.ts): every service is there
// with its entry point, ports, health probe and dependencies, and nothing else runs but
// infrastructure and the operator tools. Read as YAML only: no Docker engine needed.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import {
  findWorkspaceRoot,
  platformService,
  SERVICE_NAMES,
  type ServiceName,
  serviceEntry,
} from '../src/index';

/** Backing services the platform's services depend on (database, bus, object storage). */
const INFRASTRUCTURE = ['postgres', 'redis', 'minio'];
/** One-shot and operator containers: the migration and the admin CLI (profile `tools`). */
const TOOLS = ['migrate', 'admin'];
/** More pools of a listed service, with their own settings: browser workers (WORKER_RUNTIMES=browser). */
const POOLS: Readonly<Record<string, ServiceName>> = { 'worker-browser': 'worker' };

interface ComposeService {
  image?: unknown;
  build?: unknown;
  command?: unknown;
  environment?: Record<string, unknown>;
  ports?: unknown[];
  healthcheck?: { test?: unknown };
  depends_on?: Record<string, { condition?: string }>;
}

/** The top-level keys of the Compose specification (`x-` extensions aside). */
const COMPOSE_TOP_LEVEL = [
  'name',
  'version',
  'services',
  'networks',
  'volumes',
  'configs',
  'secrets',
  'include',
];

function readDocument(): Record<string, unknown> {
  const file = path.join(findWorkspaceRoot(__dirname), 'docker-compose.yml');
  // merge: the file shares settings through `<<: *anchor` (YAML 1.1 merge keys).
  return parse(fs.readFileSync(file, 'utf8'), { merge: true });
}

const document = readDocument();
const compose = document.services as Record<string, ComposeService>;

/** Every compose service that runs `name`: its own and its pools. */
function containersOf(name: ServiceName): [string, ComposeService][] {
  const names = [name, ...Object.keys(POOLS).filter((pool) => POOLS[pool] === name)];
  return names.map((container) => {
    const service = compose[container];
    if (service === undefined) throw new Error(`docker-compose.yml has no service ${container}`);
    return [container, service];
  });
}

/** depends_on as `{ dependency: condition }`, derived from what the service list says it needs. */
function expectedDependencies(name: ServiceName): Record<string, string> {
  const service = platformService(name);
  const expected: Record<string, string> = { redis: 'service_healthy' };
  if (service.database) {
    expected.postgres = 'service_healthy';
    expected.migrate = 'service_completed_successfully';
  }
  if (service.objectStore) expected.minio = 'service_healthy';
  for (const dependency of service.waitsFor) expected[dependency] = 'service_healthy';
  return expected;
}

describe('docker-compose.yml is a Compose file', () => {
  test('only Compose top-level keys, and every service runs an image or a build', () => {
    const unknown = Object.keys(document).filter(
      (key) => !key.startsWith('x-') && !COMPOSE_TOP_LEVEL.includes(key),
    );
    expect(unknown).toEqual([]);
    const imageless = Object.entries(compose)
      .filter(([, service]) => service.image === undefined && service.build === undefined)
      .map(([name]) => name);
    expect(imageless).toEqual([]);
  });
});

describe('docker-compose.yml follows the service list', () => {
  test('nothing runs but the listed services, their pools, infrastructure and tools', () => {
    const allowed = [...SERVICE_NAMES, ...Object.keys(POOLS), ...INFRASTRUCTURE, ...TOOLS];
    expect(Object.keys(compose).filter((name) => !allowed.includes(name))).toEqual([]);
    for (const name of [...INFRASTRUCTURE, ...TOOLS]) expect(compose[name]).toBeDefined();
  });

  test('only the listed services and their pools run a service entry point', () => {
    const entries = new Map(SERVICE_NAMES.map((name) => [serviceEntry(name), name]));
    for (const [container, service] of Object.entries(compose)) {
      const command = Array.isArray(service.command) ? service.command : [];
      const runs = command.map(String).find((part) => entries.has(part));
      const expected = SERVICE_NAMES.find((name) => name === container) ?? POOLS[container];
      expect({ container, runs: runs === undefined ? undefined : entries.get(runs) }).toEqual({
        container,
        runs: expected,
      });
    }
  });

  test.each(SERVICE_NAMES)('%s: entry point, ports, health probe and dependencies', (name) => {
    const listed = platformService(name);
    for (const [container, service] of containersOf(name)) {
      const env = service.environment ?? {};
      expect({ container, command: service.command }).toEqual({
        container,
        command: ['node', '--import', 'tsx', serviceEntry(name)],
      });
      expect({ container, HEALTH_PORT: env.HEALTH_PORT }).toEqual({
        container,
        HEALTH_PORT: String(listed.healthPort),
      });
      // A public port is published; an internal one (DATA_PORT) is set but never published.
      const publicPort = listed.publicPort === undefined ? undefined : String(listed.publicPort);
      expect({ container, PORT: env.PORT, ports: service.ports }).toEqual({
        container,
        PORT: publicPort,
        ports: publicPort === undefined ? undefined : [`${publicPort}:${publicPort}`],
      });
      const dataPort = listed.dataPort === undefined ? undefined : String(listed.dataPort);
      expect({ container, DATA_PORT: env.DATA_PORT }).toEqual({ container, DATA_PORT: dataPort });
      // Probed where the launcher and the test stacks probe it (probeBaseUrl).
      const probePort = listed.publicPort ?? listed.healthPort;
      expect(service.healthcheck?.test).toEqual([
        'CMD',
        'node',
        'infra/docker/healthcheck.js',
        expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:${probePort}/(healthz|readyz)$`)),
      ]);
      const dependsOn = Object.fromEntries(
        Object.entries(service.depends_on ?? {}).map(([dependency, how]) => [dependency, how.condition]),
      );
      expect({ container, dependsOn }).toEqual({ container, dependsOn: expectedDependencies(name) });
      if (listed.database) expect(env.DATABASE_URL).toEqual(expect.stringMatching(/^postgres:\/\//));
      expect({ container, storage: env.STORAGE_DRIVER !== undefined }).toEqual({
        container,
        storage: listed.objectStore,
      });
    }
  });

  test('the gateway reaches every internal data port by its compose name and default', () => {
    const gateway = compose.gateway?.environment ?? {};
    for (const name of SERVICE_NAMES) {
      const { dataPort, dataUrlVariable } = platformService(name);
      if (dataPort === undefined || dataUrlVariable === undefined) continue;
      expect({ [dataUrlVariable]: gateway[dataUrlVariable] }).toEqual({
        [dataUrlVariable]: `http://${name}:${dataPort}`,
      });
    }
  });
});
