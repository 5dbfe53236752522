import { isTextType, isValidUtf8, sniffProblem } from './content-sniff';

const PDF = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n', 'latin1');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);

describe('sniffProblem (binary types)', () => {
  it('accepts bytes that are the declared type', () => {
    expect(sniffProblem(PDF, 'application/pdf', false)).toBeNull();
    expect(sniffProblem(PNG, 'image/png', false)).toBeNull();
    expect(sniffProblem(JPEG, 'image/jpeg', false)).toBeNull();
    expect(sniffProblem(WEBP, 'image/webp', false)).toBeNull();
  });

  it('names what the bytes look like when they are another type', () => {
    expect(sniffProblem(PNG, 'application/pdf', false)).toBe(
      'content is not application/pdf (it looks like image/png)',
    );
    expect(sniffProblem(PDF, 'image/jpeg', true)).toBe(
      'content is not image/jpeg (it looks like application/pdf)',
    );
  });

  it('refuses bytes of no recognised type for a sniffed type', () => {
    expect(sniffProblem(Buffer.from('hello, world'), 'image/png', true)).toBe(
      'content is not image/png (its type was not recognised)',
    );
  });

  it('accepts anything for a binary type without a signature', () => {
    expect(sniffProblem(PNG, 'application/octet-stream', true)).toBeNull();
  });
});

describe('sniffProblem (text types)', () => {
  it('accepts UTF-8 text, with or without a BOM', () => {
    expect(sniffProblem(Buffer.from('name,city\nAda,Zürich\n'), 'text/csv', true)).toBeNull();
    expect(sniffProblem(Buffer.from('\ufeffa,b\n1,2\n'), 'text/csv', true)).toBeNull();
    expect(sniffProblem(Buffer.from('{"a":1}'), 'application/json', true)).toBeNull();
  });

  it('refuses NUL bytes, invalid UTF-8 and binary formats', () => {
    expect(sniffProblem(Buffer.from('a,b\n\u0000\n'), 'text/csv', true)).toBe(
      'content is not text/csv (it has NUL bytes)',
    );
    expect(sniffProblem(Buffer.from([0x61, 0x2c, 0xff, 0xfe, 0x0a]), 'text/csv', true)).toBe(
      'content is not text/csv (it is not valid UTF-8 text)',
    );
    expect(sniffProblem(PNG, 'text/csv', false)).toBe('content is not text/csv (it looks like image/png)');
  });

  it('allows a multi-byte character cut at the end of the head, not at the end of the body', () => {
    // "é" is 0xc3 0xa9: a head that stops after 0xc3 is fine while more bytes follow.
    const cut = Buffer.from([0x61, 0x2c, 0xc3]);
    expect(sniffProblem(cut, 'text/csv', false)).toBeNull();
    expect(sniffProblem(cut, 'text/csv', true)).toBe('content is not text/csv (it is not valid UTF-8 text)');
    expect(isValidUtf8(Buffer.from([0xe2, 0x82]), false)).toBe(true);
    expect(isValidUtf8(Buffer.from([0xe2, 0x82]), true)).toBe(false);
    // An invalid byte inside the head is an error even when the head is cut.
    expect(isValidUtf8(Buffer.from([0xc3, 0x28, 0x61]), false)).toBe(false);
  });
});

describe('isTextType', () => {
  it('covers text/*, JSON and XML', () => {
    expect(
      ['text/csv', 'text/plain', 'application/json', 'application/ld+json', 'image/svg+xml'].map(isTextType),
    ).toEqual([true, true, true, true, true]);
    expect(['application/pdf', 'image/png'].map(isTextType)).toEqual([false, false]);
  });
});
