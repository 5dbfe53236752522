import path from 'node:path';
import { findWorkspaceRoot, platformService, SERVICE_NAMES, serviceEntry } from '@svc/devstack';
import { unsetValue } from '../src/env-tables';
import { declaredNeeds } from '../src/service-needs';
import { serviceEnvs } from '../src/services';

/**
 * The env tables of docs/architecture.md show each service's port defaults and variables from its
 * `env.ts`; the one service list (@svc/devstack platform-services.ts) states them again for the
 * launcher, the test stacks and the compose check. This keeps the two saying the same.
 */
describe('env schemas and the one service list', () => {
  const services = serviceEnvs();

  test('every service of the list has an env schema, in the list order', () => {
    expect(services.map((service) => service.name)).toEqual([...SERVICE_NAMES]);
  });

  test.each(SERVICE_NAMES)('%s: port defaults and needs match its env schema', (name) => {
    const service = services.find((candidate) => candidate.name === name);
    if (service === undefined) throw new Error(`no env schema for ${name}`);
    const entry = platformService(name);
    const has = (key: string) => Object.hasOwn(service.schema.shape, key);
    expect({
      healthPort: unsetValue(service, 'HEALTH_PORT'),
      publicPort: unsetValue(service, 'PORT'),
      dataPort: unsetValue(service, 'DATA_PORT'),
      database: has('DATABASE_URL'),
      objectStore: has('STORAGE_DRIVER'),
    }).toEqual({
      healthPort: entry.healthPort,
      publicPort: entry.publicPort,
      dataPort: entry.dataPort,
      database: entry.database,
      objectStore: entry.objectStore,
    });
  });
});

describe("each service's defineService needs and the one service list", () => {
  const root = findWorkspaceRoot(__dirname);

  // The kit creates what `needs` asks for; the launcher, the test stacks and compose provide what
  // the list says. A service that asked for object storage the list does not give it would start
  // without STORAGE_DIR under `pnpm start`.
  test.each(SERVICE_NAMES)(
    '%s: main.ts asks for the database and object storage the list gives it',
    (name) => {
      const entry = platformService(name);
      expect(declaredNeeds(path.join(root, serviceEntry(name)))).toEqual({
        database: entry.database,
        objectStore: entry.objectStore,
        bus: true,
      });
    },
  );
});
