import fs from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_GATEWAY_PORT,
  DEFAULT_HEALTH_PORTS,
  DEFAULT_UPLOADS_DATA_PORT,
  findWorkspaceRoot,
  platformService,
  portEnv,
  probeBaseUrl,
  SERVICE_NAMES,
  STOP_ORDER,
  serviceEntry,
  servicePorts,
} from '../src/index';

describe('platform services', () => {
  test('default ports are those of docs/architecture.md "Ports"', () => {
    expect(DEFAULT_GATEWAY_PORT).toBe(8080);
    expect(DEFAULT_HEALTH_PORTS).toEqual({
      registry: 8081,
      wallet: 8082,
      orchestrator: 8083,
      uploads: 8084,
      vault: 8085,
      worker: 8086,
      gateway: 9080,
      dashboard: 8087,
    });
  });

  test('every service has an entry point and is stopped exactly once, the gateway first', () => {
    const root = findWorkspaceRoot(__dirname);
    for (const name of SERVICE_NAMES) {
      expect(serviceEntry(name)).toBe(`services/${name}/src/main.ts`);
      expect(fs.existsSync(path.join(root, serviceEntry(name)))).toBe(true);
    }
    expect(STOP_ORDER.flat().sort()).toEqual([...SERVICE_NAMES].sort());
    // The gateway first (with the dashboard behind it): no new request enters while the rest stops.
    expect(STOP_ORDER[0]).toEqual(['gateway', 'dashboard']);
  });

  test('port env and probe URL: the gateway is probed on PORT, the others on HEALTH_PORT', () => {
    expect(portEnv({ healthPort: 8081 })).toEqual({ HEALTH_PORT: '8081' });
    expect(portEnv({ port: 8080, healthPort: 9080 })).toEqual({ HEALTH_PORT: '9080', PORT: '8080' });
    expect(probeBaseUrl('registry', { healthPort: 8081 })).toBe('http://127.0.0.1:8081');
    expect(probeBaseUrl('gateway', { port: 8080, healthPort: 9080 })).toBe('http://127.0.0.1:8080');
    expect(() => probeBaseUrl('gateway', { healthPort: 9080 })).toThrow('gateway has no port to probe');
  });
});

describe('what each service needs', () => {
  test('only the worker works without a database; uploads, the vault and the worker use object storage', () => {
    expect(SERVICE_NAMES.filter((name) => !platformService(name).database)).toEqual(['worker']);
    expect(SERVICE_NAMES.filter((name) => platformService(name).objectStore)).toEqual([
      'uploads',
      'vault',
      'worker',
    ]);
  });

  test('a service listens on PORT or DATA_PORT only where the list gives it one', () => {
    const chosen = { healthPort: 1, publicPort: 2, dataPort: 3 };
    expect(servicePorts('registry', chosen)).toEqual({ healthPort: 1 });
    expect(servicePorts('gateway', chosen)).toEqual({ healthPort: 1, port: 2 });
    expect(servicePorts('uploads', chosen)).toEqual({ healthPort: 1, dataPort: 3 });
    expect(DEFAULT_UPLOADS_DATA_PORT).toBe(8094);
  });

  test('a service waits only for listed services that start before it', () => {
    for (const name of SERVICE_NAMES) {
      for (const dependency of platformService(name).waitsFor) {
        expect(SERVICE_NAMES.indexOf(dependency)).toBeLessThan(SERVICE_NAMES.indexOf(name));
      }
    }
  });
});
