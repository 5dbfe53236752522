import { ConfigError, loadEnv } from '@svc/config';
import { WorkerEnv } from './env';

/** The one variable without a default. */
const REQUIRED = { BUS_ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=' }; // 32 bytes, base64

describe('WorkerEnv', () => {
  it('defaults: health port 8086, slots by workload (no WORKER_CONCURRENCY, no WORKER_SLOTS), runtime node', () => {
    const env = loadEnv(WorkerEnv, REQUIRED);
    expect(env.HEALTH_PORT).toBe(8086);
    expect(env.WORKER_CONCURRENCY).toBeUndefined();
    expect(env.WORKER_SLOTS).toEqual({});
    expect(env.WORKER_RUNTIMES).toEqual(['node']);
  });

  it('parses WORKER_CAPABILITIES: runnable capabilities of the worker runtimes, each once; empty = all', () => {
    expect(loadEnv(WorkerEnv, REQUIRED).WORKER_CAPABILITIES).toEqual([]);
    expect(
      loadEnv(WorkerEnv, { ...REQUIRED, WORKER_CAPABILITIES: ' crt, pii-redact ' }).WORKER_CAPABILITIES,
    ).toEqual(['crt', 'pii-redact']);
    for (const bad of ['whois', 'nothing', 'crt,crt']) {
      expect(() => loadEnv(WorkerEnv, { ...REQUIRED, WORKER_CAPABILITIES: bad })).toThrow(ConfigError);
    }
    // html-to-pdf runs on `browser`, which a node-only worker does not serve.
    expect(() => loadEnv(WorkerEnv, { ...REQUIRED, WORKER_CAPABILITIES: 'html-to-pdf' })).toThrow(
      /html-to-pdf runs on the browser runtime/,
    );
    expect(
      loadEnv(WorkerEnv, { ...REQUIRED, WORKER_RUNTIMES: 'node,browser', WORKER_CAPABILITIES: 'html-to-pdf' })
        .WORKER_CAPABILITIES,
    ).toEqual(['html-to-pdf']);
  });

  it('parses WORKER_SLOTS as slug=N of runnable capabilities, each once', () => {
    expect(
      loadEnv(WorkerEnv, { ...REQUIRED, WORKER_SLOTS: ' crt=128, pii-redact=1 ,' }).WORKER_SLOTS,
    ).toEqual({
      crt: 128,
      'pii-redact': 1,
    });
    for (const bad of ['crt', 'crt=0', 'crt=1001', 'whois=2', 'nothing=2', 'crt=2,crt=3', 'crt=-1']) {
      expect(() => loadEnv(WorkerEnv, { ...REQUIRED, WORKER_SLOTS: bad })).toThrow(ConfigError);
    }
  });

  it('accepts HEALTH_PORT=0 (any free port, several workers on one host)', () => {
    expect(loadEnv(WorkerEnv, { ...REQUIRED, HEALTH_PORT: '0' }).HEALTH_PORT).toBe(0);
  });

  it('parses WORKER_RUNTIMES as a comma list without blanks or duplicates', () => {
    expect(
      loadEnv(WorkerEnv, { ...REQUIRED, WORKER_RUNTIMES: ' node, python ,,node' }).WORKER_RUNTIMES,
    ).toEqual(['node', 'python']);
  });

  it('names every bad variable', () => {
    const bad = { HEALTH_PORT: '70000', WORKER_CONCURRENCY: '0', WORKER_RUNTIMES: 'node,py:thon' };
    let error: unknown;
    try {
      loadEnv(WorkerEnv, { ...REQUIRED, ...bad });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const variables = error instanceof ConfigError ? error.problems.map((p) => p.variable).sort() : [];
    expect(variables).toEqual(['HEALTH_PORT', 'WORKER_CONCURRENCY', 'WORKER_RUNTIMES']);
  });

  it('crt defaults (design "Env vars")', () => {
    const env = loadEnv(WorkerEnv, REQUIRED);
    expect(env).toMatchObject({
      CRT_SH_URL: 'https://crt.sh',
      CERTSPOTTER_URL: 'https://api.certspotter.com',
      CRT_PROVIDER_TIMEOUT_MS: 15_000,
      CRT_PROVIDER_ATTEMPTS: 3,
      CRT_RUN_DEADLINE_MS: 45_000,
      CRT_PROVIDER_MAX_BYTES: 67_108_864,
      CRT_CACHE_TTL_MS: 300_000,
      CRT_CACHE_MAX_BYTES: 8_388_608,
    });
    expect(env.CERTSPOTTER_TOKEN).toBeUndefined();
  });

  it('reads a blank CERTSPOTTER_TOKEN as unset and accepts CRT_CACHE_TTL_MS=0 (cache off)', () => {
    const env = loadEnv(WorkerEnv, { ...REQUIRED, CERTSPOTTER_TOKEN: '  ', CRT_CACHE_TTL_MS: '0' });
    expect(env.CERTSPOTTER_TOKEN).toBeUndefined();
    expect(env.CRT_CACHE_TTL_MS).toBe(0);
  });

  it('rejects a provider URL that is not http(s) without echoing it', () => {
    let error: unknown;
    try {
      loadEnv(WorkerEnv, {
        ...REQUIRED,
        CRT_SH_URL: 'ftp://user:pw@crt.sh',
        CERTSPOTTER_URL: 'not a url',
        CRT_PROVIDER_ATTEMPTS: '0',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = error instanceof ConfigError ? error.problems : [];
    expect(problems.map((p) => p.variable).sort()).toEqual([
      'CERTSPOTTER_URL',
      'CRT_PROVIDER_ATTEMPTS',
      'CRT_SH_URL',
    ]);
    expect(JSON.stringify(problems)).not.toContain('pw@');
  });
});

describe('WorkerEnv: queue and html-to-pdf settings', () => {
  it('defaults (design "Configuration added")', () => {
    expect(loadEnv(WorkerEnv, REQUIRED)).toMatchObject({
      WORKER_LOCK_DURATION_MS: 30_000,
      WORKER_STALLED_INTERVAL_MS: 30_000,
      WORKER_MAX_STALLED_COUNT: 2,
      CHROMIUM_PATH: '/usr/bin/chromium-headless-shell',
      HTML_TO_PDF_TIMEOUT_MS: 30_000,
    });
  });

  it('reads the values given and accepts WORKER_MAX_STALLED_COUNT=0', () => {
    const env = loadEnv(WorkerEnv, {
      ...REQUIRED,
      WORKER_LOCK_DURATION_MS: '5000',
      WORKER_STALLED_INTERVAL_MS: '2000',
      WORKER_MAX_STALLED_COUNT: '0',
      CHROMIUM_PATH: '/opt/chromium/chrome',
      HTML_TO_PDF_TIMEOUT_MS: '1500',
    });
    expect(env).toMatchObject({
      WORKER_LOCK_DURATION_MS: 5_000,
      WORKER_STALLED_INTERVAL_MS: 2_000,
      WORKER_MAX_STALLED_COUNT: 0,
      CHROMIUM_PATH: '/opt/chromium/chrome',
      HTML_TO_PDF_TIMEOUT_MS: 1_500,
    });
  });

  it('names each bad one', () => {
    let error: unknown;
    try {
      loadEnv(WorkerEnv, {
        ...REQUIRED,
        WORKER_LOCK_DURATION_MS: '0',
        WORKER_STALLED_INTERVAL_MS: 'soon',
        WORKER_MAX_STALLED_COUNT: '11',
        CHROMIUM_PATH: ' /usr/bin/chromium',
        HTML_TO_PDF_TIMEOUT_MS: '-1',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const variables = error instanceof ConfigError ? error.problems.map((p) => p.variable).sort() : [];
    expect(variables).toEqual([
      'CHROMIUM_PATH',
      'HTML_TO_PDF_TIMEOUT_MS',
      'WORKER_LOCK_DURATION_MS',
      'WORKER_MAX_STALLED_COUNT',
      'WORKER_STALLED_INTERVAL_MS',
    ]);
  });

  it('object storage and pdf-extract-text defaults: the fs store under .data/objects, 30 s steps, 512 MiB', () => {
    const env = loadEnv(WorkerEnv, REQUIRED);
    expect(env).toMatchObject({
      STORAGE_DRIVER: 'fs',
      STORAGE_DIR: '.data/objects',
      PDF_EXTRACT_STEP_TIMEOUT_MS: 30_000,
      PDF_EXTRACT_THREAD_HEAP_MB: 512,
    });
  });

  it.each([
    [{ STORAGE_DRIVER: 's3', S3_ENDPOINT: 'http://127.0.0.1:9000' }, ['S3_ACCESS_KEY', 'S3_SECRET_KEY']],
    [
      { PDF_EXTRACT_THREAD_HEAP_MB: '8', PDF_EXTRACT_STEP_TIMEOUT_MS: 'soon' },
      ['PDF_EXTRACT_STEP_TIMEOUT_MS', 'PDF_EXTRACT_THREAD_HEAP_MB'],
    ],
  ])('names what is wrong or missing in %j', (source, expected) => {
    let error: unknown;
    try {
      loadEnv(WorkerEnv, { ...REQUIRED, ...source });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const variables = error instanceof ConfigError ? error.problems.map((p) => p.variable).sort() : [];
    expect(variables).toEqual(expected);
  });
});
