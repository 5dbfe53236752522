import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, type ConfigFs, configPath, loadConfig, requireApiKey, writeConfigFile } from './config';

function fakeFs(mode: number, text: string, uid = 1000): ConfigFs {
  return {
    statSync: () => ({ mode: 0o100000 | mode, uid, isFile: () => true }),
    readFileSync: () => text,
  };
}
const missingFs: ConfigFs = {
  statSync: () => {
    throw Object.assign(new Error('nope'), { code: 'ENOENT' });
  },
  readFileSync: () => '',
};
const FILE = JSON.stringify({ base_url: 'https://svc.example/', api_key: 'svc_file_key' });

describe('configPath', () => {
  it('uses XDG_CONFIG_HOME, else ~/.config', () => {
    expect(configPath({ XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/x/svc/config.json');
    expect(configPath({ HOME: '/h' })).toBe('/h/.config/svc/config.json');
    expect(configPath({ XDG_CONFIG_HOME: 'relative', HOME: '/h' })).toBe('/h/.config/svc/config.json');
  });
});

describe('loadConfig', () => {
  it('takes SVC_API_KEY and SVC_BASE_URL first, without reading the file', () => {
    const fs = fakeFs(0o644, FILE); // would be refused if read
    const config = loadConfig(
      { HOME: '/h', SVC_API_KEY: 'svc_env', SVC_BASE_URL: 'http://127.0.0.1:9/' },
      fs,
      1000,
    );
    expect(config).toMatchObject({
      apiKey: 'svc_env',
      baseUrl: 'http://127.0.0.1:9',
      keySource: 'SVC_API_KEY',
    });
  });

  it('reads a file only its owner can read', () => {
    const config = loadConfig({ HOME: '/h' }, fakeFs(0o600, FILE), 1000);
    expect(config).toMatchObject({
      apiKey: 'svc_file_key',
      baseUrl: 'https://svc.example',
      keySource: 'config',
    });
    expect(loadConfig({ HOME: '/h' }, fakeFs(0o400, FILE), 1000).apiKey).toBe('svc_file_key');
  });

  it.each([0o644, 0o640, 0o604, 0o660, 0o606, 0o610])(
    'refuses a file with mode %o, naming the chmod',
    (mode) => {
      const run = () => loadConfig({ HOME: '/h' }, fakeFs(mode, FILE), 1000);
      expect(run).toThrow(ConfigError);
      expect(run).toThrow(/accessible by others .*Run: chmod 600 '\/h\/.config\/svc\/config.json'/);
    },
  );

  it("refuses another user's file", () => {
    expect(() => loadConfig({ HOME: '/h' }, fakeFs(0o600, FILE, 0), 1000)).toThrow(/belongs to another user/);
  });

  it('never echoes the key in its errors', () => {
    const bad = JSON.stringify({ api_key: 'svc_secret_value', apikey: 'svc_secret_value' });
    try {
      loadConfig({ HOME: '/h' }, fakeFs(0o600, bad), 1000);
      throw new Error('no error');
    } catch (error) {
      expect((error as Error).message).toMatch(/unknown field apikey/);
      expect((error as Error).message).not.toContain('svc_secret_value');
    }
    expect(() => loadConfig({ HOME: '/h' }, fakeFs(0o600, 'svc_secret_value'), 1000)).toThrow(
      /not valid JSON/,
    );
  });

  it('defaults the base URL and has no key without env or file', () => {
    const config = loadConfig({ HOME: '/h' }, missingFs, 1000);
    expect(config).toMatchObject({ baseUrl: 'http://localhost:8080', apiKey: undefined, keySource: 'none' });
    expect(() => requireApiKey(config)).toThrow(/SVC_API_KEY.*svc login/);
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => loadConfig({ HOME: '/h', SVC_API_KEY: 'k', SVC_BASE_URL: 'ftp://x' }, missingFs)).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ HOME: '/h', SVC_API_KEY: 'k', SVC_BASE_URL: 'not a url' }, missingFs)).toThrow(
      ConfigError,
    );
  });
});

describe('writeConfigFile (svc login) and the real file system', () => {
  it('writes mode 600 that loadConfig accepts, and refuses it once chmod 644', () => {
    const home = mkdtempSync(join(tmpdir(), 'svc-cli-'));
    const path = configPath({ HOME: home });
    writeConfigFile(path, { api_key: 'svc_written' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ api_key: 'svc_written' });
    expect(loadConfig({ HOME: home }).apiKey).toBe('svc_written');
    chmodSync(path, 0o644);
    expect(() => loadConfig({ HOME: home })).toThrow(/mode 644.*chmod 600/);
    writeFileSync(`${path}.${process.pid}.tmp`, 'old'); // a leftover temp file with a wide mode
    chmodSync(`${path}.${process.pid}.tmp`, 0o666);
    writeConfigFile(path, { api_key: 'svc_again' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
