import fs from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_GATEWAY_PORT,
  DEFAULT_HEALTH_PORTS,
  findWorkspaceRoot,
  portEnv,
  probeBaseUrl,
  SERVICE_NAMES,
  STOP_ORDER,
  serviceEntry,
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
    });
  });

  test('every service has an entry point and is stopped exactly once, the gateway first', () => {
    const root = findWorkspaceRoot(__dirname);
    for (const name of SERVICE_NAMES) {
      expect(serviceEntry(name)).toBe(`services/${name}/src/main.ts`);
      expect(fs.existsSync(path.join(root, serviceEntry(name)))).toBe(true);
    }
    expect(STOP_ORDER.flat().sort()).toEqual([...SERVICE_NAMES].sort());
    expect(STOP_ORDER[0]).toEqual(['gateway']);
  });

  test('port env and probe URL: the gateway is probed on PORT, the others on HEALTH_PORT', () => {
    expect(portEnv({ healthPort: 8081 })).toEqual({ HEALTH_PORT: '8081' });
    expect(portEnv({ port: 8080, healthPort: 9080 })).toEqual({ HEALTH_PORT: '9080', PORT: '8080' });
    expect(probeBaseUrl('registry', { healthPort: 8081 })).toBe('http://127.0.0.1:8081');
    expect(probeBaseUrl('gateway', { port: 8080, healthPort: 9080 })).toBe('http://127.0.0.1:8080');
    expect(() => probeBaseUrl('gateway', { healthPort: 9080 })).toThrow('gateway has no port to probe');
  });
});
