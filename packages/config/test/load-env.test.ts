import { z } from 'zod';
import {
  baseEnv,
  booleanFlag,
  ConfigError,
  DEFAULT_DATA_DIR,
  databaseEnv,
  dataDirEnv,
  durationMs,
  intInRange,
  loadEnv,
  pathVar,
  port,
  redisEnv,
} from '../src/index';

const ServiceEnv = z.object({
  ...baseEnv,
  ...redisEnv,
  ...databaseEnv,
  HEALTH_PORT: port(),
  PORT: port(8080),
});
const DATABASE_URL = 'postgres://svc:s3cr3t-pw@127.0.0.1:5432/svc';

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadEnv', () => {
  test('applies defaults and converts types', () => {
    expect(loadEnv(ServiceEnv, { DATABASE_URL, HEALTH_PORT: '9101' })).toEqual({
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      REDIS_URL: 'redis://127.0.0.1:6379',
      BUS_PREFIX: 'svc',
      RPC_TIMEOUT_MS: 3000,
      DATABASE_URL,
      DATABASE_POOL_MAX: 10,
      HEALTH_PORT: 9101,
      PORT: 8080,
    });
  });

  test('DATABASE_POOL_MAX is a whole number 1..1000', () => {
    expect(
      loadEnv(ServiceEnv, { DATABASE_URL, HEALTH_PORT: '9101', DATABASE_POOL_MAX: '32' }).DATABASE_POOL_MAX,
    ).toBe(32);
    for (const bad of ['0', '1001', '2.5', 'ten']) {
      expect(() =>
        loadEnv(ServiceEnv, { DATABASE_URL, HEALTH_PORT: '9101', DATABASE_POOL_MAX: bad }),
      ).toThrow(/DATABASE_POOL_MAX/);
    }
  });

  test('reads given values', () => {
    const env = loadEnv(ServiceEnv, {
      NODE_ENV: 'production',
      LOG_LEVEL: 'debug',
      REDIS_URL: 'rediss://:pw@redis.internal:6380/2',
      BUS_PREFIX: 'test_1-a',
      RPC_TIMEOUT_MS: '250',
      DATABASE_URL: 'postgresql://localhost/db',
      HEALTH_PORT: '1',
      PORT: '65535',
    });
    expect(env).toMatchObject({
      NODE_ENV: 'production',
      LOG_LEVEL: 'debug',
      RPC_TIMEOUT_MS: 250,
      PORT: 65535,
      HEALTH_PORT: 1,
    });
  });

  test('the error names every bad variable and why, in one message', () => {
    const err = configError(() => loadEnv(ServiceEnv, { PORT: 'abc', HEALTH_PORT: '9101' }));
    expect(err.message).toBe(
      'Invalid configuration: DATABASE_URL: required; PORT: expected an integer between 1 and 65535, got "abc"',
    );
    expect(err.problems).toEqual([
      { variable: 'DATABASE_URL', message: 'required' },
      { variable: 'PORT', message: 'expected an integer between 1 and 65535, got "abc"' },
    ]);
  });

  test('an empty variable counts as unset', () => {
    expect(loadEnv(ServiceEnv, { DATABASE_URL, HEALTH_PORT: '9101', PORT: '', LOG_LEVEL: '' })).toMatchObject(
      {
        PORT: 8080,
        LOG_LEVEL: 'info',
      },
    );
    expect(configError(() => loadEnv(ServiceEnv, { DATABASE_URL: '', HEALTH_PORT: '9101' })).message).toBe(
      'Invalid configuration: DATABASE_URL: required',
    );
  });

  test('enumerations list the accepted words', () => {
    const err = configError(() =>
      loadEnv(ServiceEnv, { DATABASE_URL, HEALTH_PORT: '9101', LOG_LEVEL: 'loud', NODE_ENV: 'prod' }),
    );
    expect(err.message).toContain('NODE_ENV: expected one of development, test, production, got "prod"');
    expect(err.message).toContain(
      'LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
  });

  test('URL variables never show their value (it may hold a password)', () => {
    const err = configError(() =>
      loadEnv(ServiceEnv, {
        DATABASE_URL: 'mysql://root:hunter2@db/svc',
        REDIS_URL: 'http://:redis-pass@cache:6379',
        HEALTH_PORT: '9101',
      }),
    );
    expect(err.message).toContain(
      'DATABASE_URL: must be a postgres:// or postgresql:// URL (value not shown)',
    );
    expect(err.message).toContain('REDIS_URL: must be a redis:// or rediss:// URL (value not shown)');
    expect(err.message).not.toContain('hunter2');
    expect(err.message).not.toContain('redis-pass');
    expect(
      configError(() => loadEnv(ServiceEnv, { DATABASE_URL: 'not a url', HEALTH_PORT: '9101' })).message,
    ).toContain('DATABASE_URL: must be a postgres');
  });

  test('BUS_PREFIX shape', () => {
    expect(
      configError(() => loadEnv(ServiceEnv, { DATABASE_URL, HEALTH_PORT: '9101', BUS_PREFIX: 'Bad Prefix' }))
        .message,
    ).toBe('Invalid configuration: BUS_PREFIX: must be 1-32 lowercase letters, digits, _ or -');
  });

  test('defaults to process.env', () => {
    const key = 'SVC_CONFIG_TEST_PORT';
    process.env[key] = '4321';
    try {
      expect(loadEnv(z.object({ [key]: port() }))).toEqual({ [key]: 4321 });
    } finally {
      delete process.env[key];
    }
  });
});

describe('helpers', () => {
  const one = (schema: z.ZodType, value: string | undefined): unknown => {
    const parsed: Record<string, unknown> = loadEnv(z.object({ V: schema }), { V: value });
    return parsed.V;
  };
  const problem = (schema: z.ZodType, value: string | undefined) =>
    configError(() => loadEnv(z.object({ V: schema }), { V: value })).problems[0]?.message;

  test('port(): 1..65535 integers only', () => {
    expect(one(port(), '80')).toBe(80);
    expect(one(port(), ' 8080 ')).toBe(8080);
    expect(one(port(3000), undefined)).toBe(3000);
    for (const bad of ['0', '65536', '-1', '80.5', '1e3', 'http', '0x50']) {
      expect(problem(port(), bad)).toBe(`expected an integer between 1 and 65535, got "${bad}"`);
    }
    expect(problem(port(), undefined)).toBe('required');
  });

  test('port(d, { allowZero: true }): 0..65535, 0 meaning any free port', () => {
    const anyPort = port(8086, { allowZero: true });
    expect(one(anyPort, '0')).toBe(0);
    expect(one(anyPort, ' 65535 ')).toBe(65535);
    expect(one(anyPort, undefined)).toBe(8086);
    expect(one(port(undefined, { allowZero: false }), '1')).toBe(1);
    expect(problem(port(undefined, { allowZero: false }), '0')).toBe(
      'expected an integer between 1 and 65535, got "0"',
    );
    for (const bad of ['65536', '-1', '8.5', 'any']) {
      expect(problem(anyPort, bad)).toBe(
        `expected an integer between 0 and 65535 (0 = any free port), got "${bad}"`,
      );
    }
    expect(problem(port(undefined, { allowZero: true }), undefined)).toBe('required');
  });

  test('intInRange(): whole numbers within the bounds, both included', () => {
    expect(one(intInRange(1, 1000), '1')).toBe(1);
    expect(one(intInRange(1, 1000), ' 1000 ')).toBe(1000);
    expect(one(intInRange(0, 5), '0')).toBe(0);
    expect(one(intInRange(1, 1000, 4), undefined)).toBe(4);
    for (const bad of ['0', '1001', '-3', '2.5', '1e2', 'four']) {
      expect(problem(intInRange(1, 1000), bad)).toBe(`expected an integer between 1 and 1000, got "${bad}"`);
    }
    expect(problem(intInRange(1, 1000), undefined)).toBe('required');
  });

  test('intInRange() refuses bounds it cannot check', () => {
    expect(() => intInRange(5, 1)).toThrow(RangeError);
    expect(() => intInRange(-1, 1)).toThrow(RangeError);
    expect(() => intInRange(0, 1.5)).toThrow(RangeError);
    expect(() => intInRange(0, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  test('durationMs(): positive whole milliseconds within the setTimeout range', () => {
    expect(one(durationMs(), '1500')).toBe(1500);
    expect(one(durationMs(3000), undefined)).toBe(3000);
    expect(problem(durationMs(), '0')).toBe(
      'expected a duration in milliseconds between 1 and 2147483647, got "0"',
    );
    expect(problem(durationMs(), '3s')).toContain('got "3s"');
    expect(problem(durationMs(), '2147483648')).toContain('between 1 and 2147483647');
  });

  test('booleanFlag(): true/false, 1/0, yes/no in any case', () => {
    for (const yes of ['true', 'TRUE', '1', 'yes', 'Yes']) expect(one(booleanFlag(), yes)).toBe(true);
    for (const no of ['false', 'False', '0', 'no', 'NO']) expect(one(booleanFlag(), no)).toBe(false);
    expect(one(booleanFlag(true), undefined)).toBe(true);
    expect(one(booleanFlag(false), undefined)).toBe(false);
    expect(problem(booleanFlag(), 'maybe')).toBe('expected true/false, 1/0 or yes/no, got "maybe"');
  });

  test('pathVar(): any non-blank path, kept as given (relative ones too); no surrounding spaces', () => {
    expect(one(pathVar(), '/var/lib/svc')).toBe('/var/lib/svc');
    expect(one(pathVar(), '../data dir')).toBe('../data dir');
    expect(one(pathVar('.data'), undefined)).toBe('.data');
    expect(problem(pathVar(), '   ')).toBe('expected a path, got only whitespace');
    expect(problem(pathVar(), '/tmp/x ')).toBe(
      'expected a path without leading or trailing spaces, got "/tmp/x "',
    );
    expect(problem(pathVar(), undefined)).toBe('required');
  });

  test('dataDirEnv: DATA_DIR defaults to .data', () => {
    expect(loadEnv(z.object(dataDirEnv), {})).toEqual({ DATA_DIR: DEFAULT_DATA_DIR });
    expect(DEFAULT_DATA_DIR).toBe('.data');
    expect(loadEnv(z.object(dataDirEnv), { DATA_DIR: '/srv/svc' })).toEqual({ DATA_DIR: '/srv/svc' });
  });

  test('echoed values are cut to 40 characters', () => {
    const message = problem(port(), 'x'.repeat(100)) ?? '';
    expect(message.length).toBeLessThan(100);
    expect(message).toContain('…');
  });
});
