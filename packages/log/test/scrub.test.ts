import { REDACTED, scrubSecrets } from '../src/index';

const API_KEY = 'svc_live_AbCdEf123456_9sX2kLmNoPqRsTuVwXyZ0123456789abcdefghij';
const TEST_KEY = 'svc_test_Zz9y8x7w6v5u_secretpart';
const UPLOAD_TOKEN = 'upl_7f3k2j1h0g9f8e7d6c5b4a_token';

describe('scrubSecrets', () => {
  test('API keys, live and test', () => {
    expect(scrubSecrets(`key ${API_KEY} used`)).toBe(`key ${REDACTED} used`);
    expect(scrubSecrets(`k=${TEST_KEY}`)).toBe(`k=${REDACTED}`);
  });

  test('keys glued to other text still go', () => {
    expect(scrubSecrets(`abc_${API_KEY}`)).not.toContain('AbCdEf123456');
    expect(scrubSecrets(`"${API_KEY}"`)).toBe(`"${REDACTED}"`);
  });

  test('upload tokens', () => {
    expect(scrubSecrets(`token=${UPLOAD_TOKEN}&x=1`)).toBe(`token=${REDACTED}&x=1`);
  });

  test('bearer tokens of any shape, any letter case', () => {
    expect(scrubSecrets('Authorization: Bearer eyJhbGciOi.J9.abc-_~+/=')).toBe(
      `Authorization: Bearer ${REDACTED}`,
    );
    expect(scrubSecrets('authorization: bearer opaque123')).toBe(`authorization: bearer ${REDACTED}`);
    expect(scrubSecrets(`Bearer ${API_KEY}`)).toBe(`Bearer ${REDACTED}`);
  });

  test('several secrets in one text, and text without secrets is unchanged', () => {
    expect(scrubSecrets(`${API_KEY} and ${UPLOAD_TOKEN}`)).toBe(`${REDACTED} and ${REDACTED}`);
    const plain = 'run 6ba7b810-9dad-41d1-80b4-00c04fd430c8 completed in 12 ms (svc registry)';
    expect(scrubSecrets(plain)).toBe(plain);
  });

  test('keeps a JSON line valid', () => {
    const line = JSON.stringify({ msg: `got ${API_KEY}`, nested: { note: `Bearer ${UPLOAD_TOKEN}\nnext` } });
    const parsed = JSON.parse(scrubSecrets(line));
    expect(parsed).toEqual({ msg: `got ${REDACTED}`, nested: { note: `Bearer ${REDACTED}\nnext` } });
  });
});
