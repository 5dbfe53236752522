import { assertObjectKey, InvalidObjectKeyError, MAX_OBJECT_KEY_LENGTH, objectKeyProblem } from '../src';

describe('object keys', () => {
  it.each([
    'uploads/0b7f3c4e-6a1d-4c55-9d1e-2b1f0c9a7e11',
    'artifacts/run-1/document.pdf',
    'a',
    'A-Z_0.9/x..y/.hidden',
    'x'.repeat(MAX_OBJECT_KEY_LENGTH),
  ])('accepts %s', (key) => {
    expect(objectKeyProblem(key)).toBeNull();
    expect(assertObjectKey(key)).toBe(key);
  });

  it.each([
    ['', /empty/],
    ['/uploads/a', /empty path segment/],
    ['uploads/', /empty path segment/],
    ['uploads//a', /empty path segment/],
    ['.', /segment \. is not allowed/],
    ['..', /segment \.\. is not allowed/],
    ['uploads/../etc/passwd', /segment \.\. is not allowed/],
    ['uploads/./a', /segment \. is not allowed/],
    ['uploads/a b', /A-Z a-z 0-9/],
    ['uploads\\a', /A-Z a-z 0-9/],
    ['uploads/ä', /A-Z a-z 0-9/],
    ['uploads/a?b', /A-Z a-z 0-9/],
    ['x'.repeat(MAX_OBJECT_KEY_LENGTH + 1), /longer than 512/],
  ])('rejects %j', (key, reason) => {
    expect(objectKeyProblem(key)).toMatch(reason);
    expect(() => assertObjectKey(key)).toThrow(InvalidObjectKeyError);
  });
});
