import { generateApiKey, generateUploadToken } from '@svc/auth';
import { UnauthorizedError } from '@svc/errors';
import { mediaType, presentedToken, putDeadlineMs } from './redeem-upload';

const ID = '5d1f0c3a-2b4e-4c6d-8e9f-0a1b2c3d4e5f';

function unauthorized(run: () => void): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(UnauthorizedError);
    return err instanceof Error ? err.message : String(err);
  }
  throw new Error('expected a 401');
}

describe('presentedToken', () => {
  it('takes a bearer upload token', () => {
    const token = generateUploadToken();
    expect(presentedToken(`Bearer ${token}`, ID)).toBe(token);
    expect(presentedToken(`bearer  ${token} `, ID)).toBe(token);
  });

  it('refuses a missing header, an API key and anything else, never echoing the credential', () => {
    expect(unauthorized(() => presentedToken(undefined, ID))).toMatch(/^missing upload token/);
    expect(unauthorized(() => presentedToken('  ', ID))).toMatch(/^missing upload token/);
    const { apiKey } = generateApiKey();
    const apiKeyMessage = unauthorized(() => presentedToken(`Bearer ${apiKey}`, ID));
    expect(apiKeyMessage).toBe(
      'this endpoint takes the upload token of the session (Authorization: Bearer upl_...), not an API key',
    );
    expect(unauthorized(() => presentedToken('Bearer svc_test_whatever', ID))).toBe(apiKeyMessage);
    const token = generateUploadToken();
    for (const header of [`Basic ${token}`, `Bearer ${token}x`, 'Bearer upl_short', token]) {
      const message = unauthorized(() => presentedToken(header, ID));
      expect(message).toBe(`upload token is not valid for upload ${ID}`);
      expect(message).not.toContain(token);
    }
  });
});

describe('mediaType', () => {
  it('drops parameters and lowercases', () => {
    expect(mediaType('Application/PDF; charset=binary')).toBe('application/pdf');
    expect(mediaType('text/csv')).toBe('text/csv');
    expect(mediaType(undefined)).toBe('');
  });
});

describe('putDeadlineMs', () => {
  it('stops a PUT short of the point where its claim may be taken over', () => {
    // 10 min: 30 s before; short timeouts: a tenth before.
    expect(putDeadlineMs(600_000)).toBe(570_000);
    expect(putDeadlineMs(1_500)).toBe(1_350);
    for (const timeout of [1, 10, 1_000, 60_000, 3_600_000]) {
      expect(putDeadlineMs(timeout)).toBeLessThanOrEqual(timeout);
      expect(putDeadlineMs(timeout)).toBeGreaterThan(0);
    }
  });
});
