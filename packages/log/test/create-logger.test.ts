import { REDACTED } from '../src/index';
import { memoryLogger } from '../src/memory-logger';

const API_KEY = 'svc_live_AbCdEf123456_9sX2kLmNoPqRsTuVwXyZ0123456789abcdefghij';
const UPLOAD_TOKEN = 'upl_7f3k2j1h0g9f8e7d6c5b4a_token';
const PASSWORD = 'correct-horse-battery-staple';
const SECRETS = [
  API_KEY,
  'AbCdEf123456',
  UPLOAD_TOKEN,
  '7f3k2j1h0g9f8e7d6c5b4a',
  PASSWORD,
  'opaque-bearer-value',
];

function expectNoSecrets(text: string) {
  for (const secret of SECRETS)
    expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false });
}

describe('createLogger', () => {
  test('writes JSON lines with service, level, time and msg', () => {
    const { logger, lines } = memoryLogger('registry');
    logger.info({ run_id: 'r1' }, 'started');
    const [line] = lines();
    expect(line).toMatchObject({ service: 'registry', level: 30, msg: 'started', run_id: 'r1' });
    expect(typeof line?.time).toBe('string');
  });

  test('honours the level', () => {
    const { logger, lines } = memoryLogger('registry', 'info');
    logger.debug('hidden');
    logger.warn('shown');
    expect(lines().map((l) => l.msg)).toEqual(['shown']);
  });

  test('scrubs secrets in the message and in format arguments', () => {
    const { logger, text } = memoryLogger('test-service');
    logger.info(`presented key ${API_KEY}`);
    logger.info('upload with %s then %o', UPLOAD_TOKEN, { header: 'Bearer opaque-bearer-value' });
    expectNoSecrets(text());
    expect(text()).toContain(REDACTED);
  });

  test('scrubs secret-shaped strings in nested objects and arrays under innocent keys', () => {
    const { logger, text, lines } = memoryLogger('test-service');
    logger.info({ request: { body: { note: `use ${API_KEY}`, list: [UPLOAD_TOKEN] } } }, 'nested');
    expectNoSecrets(text());
    expect(lines()[0]).toMatchObject({ request: { body: { note: `use ${REDACTED}`, list: [REDACTED] } } });
  });

  test('redacts secret keys whatever their value looks like, at depth 0 to 2', () => {
    const { logger, text, lines } = memoryLogger('test-service');
    logger.info(
      {
        password: PASSWORD,
        user: { password: PASSWORD, api_key: 'not-shaped-like-a-key' },
        req: {
          body: { secret: PASSWORD, token: 'opaque' },
          headers: { authorization: 'Basic dXNlcjpwYXNz', cookie: 'sid=1' },
        },
        upload: { upload_token: 'x', uploadUrl: 'https://s3.example/bucket?X-Amz-Signature=abc' },
      },
      'keys',
    );
    expectNoSecrets(text());
    expect(text()).not.toContain('dXNlcjpwYXNz');
    expect(text()).not.toContain('X-Amz-Signature');
    expect(lines()[0]).toMatchObject({
      password: REDACTED,
      user: { password: REDACTED, api_key: REDACTED },
      req: {
        body: { secret: REDACTED, token: REDACTED },
        headers: { authorization: REDACTED, cookie: REDACTED },
      },
      upload: { upload_token: REDACTED, uploadUrl: REDACTED },
    });
  });

  test('redacts vault field values but leaves ordinary `value` keys alone', () => {
    const { logger, lines } = memoryLogger('test-service');
    logger.info({ field: { name: 'passport_number', value: 'X1234567' }, metric: { value: 42 } }, 'vault');
    logger.info({ op: { fields: [{ name: 'iban', value: 'DE89370400440532013000' }] } }, 'vault list');
    const [first, second] = lines();
    expect(first).toMatchObject({
      field: { name: 'passport_number', value: REDACTED },
      metric: { value: 42 },
    });
    expect(second).toMatchObject({ op: { fields: [{ name: 'iban', value: REDACTED }] } });
  });

  test('scrubs error messages and stacks', () => {
    const { logger, text, lines } = memoryLogger('test-service');
    const err = new Error(`verify failed for ${API_KEY} (Bearer opaque-bearer-value)`);
    logger.error({ err }, 'boom');
    logger.error(new Error(`token ${UPLOAD_TOKEN} rejected`));
    expectNoSecrets(text());
    const [first] = lines();
    expect(first).toMatchObject({
      err: { type: 'Error', message: `verify failed for ${REDACTED} (Bearer ${REDACTED})` },
    });
    expect(String((first?.err as { stack?: unknown } | undefined)?.stack)).toContain(REDACTED);
  });

  test('child loggers keep redaction and scrubbing, bindings included', () => {
    const { logger, text, lines } = memoryLogger('test-service');
    const child = logger.child({ key: API_KEY, token: 'opaque' });
    child.info({ headers: { authorization: `Bearer ${API_KEY}` } }, 'child');
    expectNoSecrets(text());
    expect(lines()[0]).toMatchObject({ service: 'test-service', key: REDACTED, token: REDACTED });
  });

  test('flush works with a destination that has no flush', () => {
    const { logger } = memoryLogger('test-service');
    const done = jest.fn();
    logger.flush(done);
    expect(done).toHaveBeenCalled();
  });
});
