import { parse } from 'tldts';
import { Apex, apexProblem, toJsonSchema } from '../src/index';
import { PSL_VECTORS, type PslVector } from './support/psl-vectors';

/** The single message Apex gives for `value`, or null when it accepts it. */
function problemOf(value: unknown): string | null {
  const parsed = Apex.safeParse(value);
  if (parsed.success) return null;
  expect(parsed.error.issues).toHaveLength(1);
  return parsed.error.issues[0]?.message ?? 'no message';
}

const PUBLIC_SUFFIX =
  /^(\S+) is a public suffix \((?:(?:ICANN|PRIVATE) section of the Public Suffix List|by the Public Suffix List's default rule "\*": a top-level domain the list does not name is a public suffix)\); give a registrable domain under it, e\.g\. example\.\1$/;
/** The message for a single unlisted label: a public suffix by the list's default rule `*`. */
const defaultRuleSuffix = (name: string) =>
  `${name} is a public suffix (by the Public Suffix List's default rule "*": a top-level domain the list does not name is a public suffix); give a registrable domain under it, e.g. example.${name}`;
const subdomain = (name: string, registrable: string) =>
  `${name} is a subdomain; give its registrable domain ${registrable}`;

/**
 * PSL vectors that do not apply to the apex rule, each with why and what we answer instead. Every
 * other vector applies as is: the apex is accepted exactly when the registrable domain the list
 * gives equals the (lowercased) input.
 */
const NOT_APPLICABLE: ReadonlyArray<{
  why: string;
  matches: (input: string | null) => boolean;
  answer: RegExp;
}> = [
  {
    // The PSL's algorithm takes any value; our apex is a JSON string (spec §2.6).
    why: 'null input: not a string',
    matches: (input) => input === null,
    answer: /expected string/,
  },
  {
    // The list has no registrable domain for these either; we reject them for the shape (an apex is
    // a host name, not a cookie domain), before looking at the list.
    why: 'leading dot: not an RFC 1123 host name',
    matches: (input) => input?.startsWith('.') === true,
    answer: /^must not contain an empty label/,
  },
  {
    // We require internationalised names in their xn-- form; the punycoded twins of these vectors
    // are in the list too and apply.
    why: 'non-ASCII (IDN) input: we require the xn-- form',
    matches: (input) => input !== null && /[^\x20-\x7e]/.test(input),
    answer: /^must be ASCII: write an internationalised domain in its xn-- \(punycode\) form$/,
  },
];

const notApplicable = (input: string | null) => NOT_APPLICABLE.find((rule) => rule.matches(input));
const APPLICABLE = PSL_VECTORS.flatMap(([input, expected]) =>
  input !== null && notApplicable(input) === undefined ? [[input, expected] as const] : [],
);
const DEVIATING = PSL_VECTORS.filter(([input]) => notApplicable(input) !== undefined);

describe('Apex against the Public Suffix List test vectors (publicsuffix/list tests/test_psl.txt)', () => {
  test('every active vector of the file is transcribed, and most of them apply', () => {
    expect(PSL_VECTORS).toHaveLength(78);
    // 14 do not apply: 1 null, 4 leading dots, 9 non-ASCII. The 4 vectors under the unlisted TLD
    // `example` apply since issue 13: the list's default rule `*` (decisions C2).
    expect(DEVIATING).toHaveLength(14);
    expect(APPLICABLE).toHaveLength(64);
  });

  // tldts's built-in copy of the list answers like the PSL's own tests (isolates list drift from our rule).
  test.each(APPLICABLE)('tldts: %s -> %s', (input, expected) => {
    expect(parse(input.toLowerCase(), { allowPrivateDomains: true, extractHostname: false }).domain).toBe(
      expected,
    );
  });

  test.each(APPLICABLE)('apex %s (registrable domain %s)', (input, expected) => {
    const lower = input.toLowerCase();
    const problem = problemOf(input);
    if (expected === lower) {
      expect(problem).toBeNull();
      expect(Apex.parse(input)).toBe(lower);
    } else if (expected === null) {
      expect(problem).toMatch(PUBLIC_SUFFIX);
      expect(problem?.startsWith(`${lower} is a public suffix`)).toBe(true);
    } else {
      // The name we suggest is the list's own answer.
      expect(problem).toBe(subdomain(lower, expected));
    }
  });

  test.each(
    DEVIATING.map((vector: PslVector) => [vector[0], vector[1], notApplicable(vector[0])?.why] as const),
  )('not applicable: %p (PSL: %p) is rejected: %s', (input) => {
    const rule = notApplicable(input);
    expect(rule).toBeDefined();
    expect(problemOf(input)).toMatch(rule?.answer ?? /never/);
  });

  test('the commented-out .local vectors: answered by the default rule `*` like any unlisted TLD', () => {
    expect(problemOf('local')).toBe(defaultRuleSuffix('local'));
    expect(problemOf('example.local')).toBeNull();
    expect(problemOf('b.example.local')).toBe(subdomain('b.example.local', 'example.local'));
    expect(problemOf('a.b.example.local')).toBe(subdomain('a.b.example.local', 'example.local'));
  });
});

describe('Apex: the 422 cases of the issue, each with why', () => {
  test.each([
    ['www.example.com', subdomain('www.example.com', 'example.com')],
    ['WWW.Example.COM', subdomain('www.example.com', 'example.com')],
    ['a.b.example.co.uk', subdomain('a.b.example.co.uk', 'example.co.uk')],
    ['bar.foo.github.io', subdomain('bar.foo.github.io', 'foo.github.io')],
  ])('subdomain: %p', (input, message) => {
    expect(problemOf(input)).toBe(message);
  });

  test.each([
    ['co.uk', 'ICANN'],
    ['com', 'ICANN'],
    ['uk', 'ICANN'],
    ['github.io', 'PRIVATE'],
    ['blogspot.com', 'PRIVATE'],
    ['s3.amazonaws.com', 'PRIVATE'],
  ])('public suffix: %p (%s section)', (input, section) => {
    expect(problemOf(input)).toBe(
      `${input} is a public suffix (${section} section of the Public Suffix List); give a registrable domain under it, e.g. example.${input}`,
    );
  });

  test.each([
    '192.0.2.1',
    '10.0.0.1',
    '999.1.1.1',
    '::1',
    '[::1]',
    '2001:db8::1',
    '[2001:DB8::1]',
    '::ffff:192.0.2.1',
    'fe80::1%eth0',
  ])('IP address: %p', (input) => {
    expect(problemOf(input)).toBe('must be a domain name, not an IP address');
  });

  test.each(['example..com', '.example.com', 'a..b.example.com'])('empty label: %p', (input) => {
    expect(problemOf(input)).toBe('must not contain an empty label (leading or doubled dot)');
  });

  test('empty, trailing dot, too long', () => {
    expect(problemOf('')).toBe('must not be empty');
    expect(problemOf('example.com.')).toBe('must not end with a dot');
    expect(problemOf(`${'a'.repeat(64)}.com`)).toBe(
      `label "${'a'.repeat(20)}…" is longer than 63 characters`,
    );
    const long = [...Array.from({ length: 4 }, () => 'a'.repeat(63)), 'com'].join('.');
    expect(long.length).toBeGreaterThan(253);
    expect(problemOf(long)).toBe('must be at most 253 characters');
  });

  test.each([
    'bücher.de',
    'BÜCHER.de',
    '例え.jp',
    'example\u3002com', // IDEOGRAPHIC FULL STOP, a dot in some input methods
    '\u212Aelvin.com', // KELVIN SIGN: lowercases to an ASCII "k", still not ASCII as sent
  ])('not ASCII: %p', (input) => {
    expect(problemOf(input)).toBe(
      'must be ASCII: write an internationalised domain in its xn-- (punycode) form',
    );
  });

  test.each([
    ['exa_mple.com', 'exa_mple'],
    ['-example.com', '-example'],
    ['example-.com', 'example-'],
    ['ex ample.com', 'ex ample'],
    [' example.com', ' example'],
    ['*.example.com', '*'],
    ['user@example.com', 'user@example'],
    ['https://example.com', 'https://example'],
    ['example.com:443', 'com:443'],
    ['example.com/path', 'com/path'],
    ['example.com\n', 'com\n'],
  ])('not an RFC 1123 host name: %p', (input, label) => {
    const problem = problemOf(input);
    expect(problem).toBe(
      `label ${JSON.stringify(label)} is not an RFC 1123 hostname label (letters, digits and inner hyphens only)`,
    );
    // The message goes into a one-line ErrorResponse and into logs.
    expect(problem).not.toMatch(/[\r\n]/);
  });

  test.each([
    ['foo.unknowntld', null],
    ['example.notatld', null],
    ['a.b.unknowntld', subdomain('a.b.unknowntld', 'b.unknowntld')],
    ['www.example.notatld', subdomain('www.example.notatld', 'example.notatld')],
    ['unknowntld', defaultRuleSuffix('unknowntld')],
    ['localhost', defaultRuleSuffix('localhost')],
  ])('a TLD the list does not name follows its default rule "*": %p', (input, problem) => {
    expect(problemOf(input)).toBe(problem);
  });

  test.each([
    ['example.123', '123'],
    ['1.2.3.4.5', '5'],
  ])('an all-digit top-level label: %p', (input, tld) => {
    expect(problemOf(input)).toBe(
      `the top-level label "${tld}" is all digits; a host name's top-level domain never is (RFC 3696 §2)`,
    );
  });

  test.each([42, null, undefined, ['example.com'], { apex: 'example.com' }])('not a string: %p', (input) => {
    expect(Apex.safeParse(input).success).toBe(false);
  });
});

describe('Apex: accepted names', () => {
  test.each([
    ['example.com', 'example.com'],
    ['foo.github.io', 'foo.github.io'],
    ['example.co.uk', 'example.co.uk'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['xn--85x722f.xn--fiqs8s', 'xn--85x722f.xn--fiqs8s'],
    ['XN--BCHER-KVA.DE', 'xn--bcher-kva.de'],
    ['ExAmPlE.CoM', 'example.com'],
    ['EXAMPLE.CO.UK', 'example.co.uk'],
    ['Foo.GitHub.IO', 'foo.github.io'],
    ['my-site2.co.uk', 'my-site2.co.uk'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
    ['0x7f.com', '0x7f.com'],
  ])('%p -> %p', (input, expected) => {
    expect(Apex.parse(input)).toBe(expected);
    expect(apexProblem(expected)).toBeNull();
  });
});

describe('Apex in JSON Schema', () => {
  test('published as a hostname string of at most 253 characters (the PSL rule is server-side)', () => {
    expect(toJsonSchema(Apex)).toMatchObject({ type: 'string', format: 'hostname', maxLength: 253 });
  });
});
