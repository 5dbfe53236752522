import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { CrtInput, manifestInputJsonSchema } from '../src/index';
import { PSL_VECTORS } from './support/psl-vectors';

/**
 * The JSON Schema that describe (spec §4.2) publishes as crt's `input_schema`, checked with a real
 * JSON Schema validator (ajv, draft 2020-12, formats on) against what the server's zod schema does.
 * JSON Schema cannot express the Public Suffix List, so the published schema is deliberately looser
 * than the server on the apex (a client that validates locally never rejects a valid apex); on every
 * other rule the two agree.
 */
const published = manifestInputJsonSchema({ slug: 'crt', input: CrtInput });
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(published);
const schemaAccepts = (input: unknown): boolean => validate(input) === true;
const serverAccepts = (input: unknown): boolean => CrtInput.safeParse(input).success;

/** Apexes the server accepts: the issue's own plus every PSL vector that is its own registrable domain. */
const ACCEPTED_APEXES = [
  'example.com',
  'foo.github.io',
  'example.co.uk',
  'xn--bcher-kva.de',
  'ExAmPlE.CoM',
  `${'a'.repeat(63)}.com`,
  ...PSL_VECTORS.flatMap(([input, expected]) =>
    input !== null && expected !== null && input.toLowerCase() === expected && serverAccepts({ apex: input })
      ? [input]
      : [],
  ),
];

describe("crt's published input JSON Schema", () => {
  test('is draft 2020-12, strict, requires apex, and publishes apex as a hostname', () => {
    expect(published).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: ['apex'],
      additionalProperties: false,
      properties: {
        apex: { type: 'string', format: 'hostname', maxLength: 253 },
        include_first_seen: { type: 'boolean', default: false },
        limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
      },
    });
    expect(Object.keys(published.properties ?? {}).sort()).toEqual(['apex', 'include_first_seen', 'limit']);
  });

  test('accepts every apex the server accepts (so clients that validate locally are never stricter)', () => {
    expect(ACCEPTED_APEXES.length).toBeGreaterThanOrEqual(25);
    for (const apex of ACCEPTED_APEXES) {
      expect({ apex, server: serverAccepts({ apex }), schema: schemaAccepts({ apex }) }).toEqual({
        apex,
        server: true,
        schema: true,
      });
    }
  });

  test.each([
    [{}],
    [{ apex: 42 }],
    [{ apex: 'exa_mple.com' }],
    [{ apex: 'ex ample.com' }],
    [{ apex: `${'a'.repeat(64)}.com` }],
    [{ apex: 'example..com' }],
    [{ apex: 'example.com', extra: 1 }],
    [{ apex: 'example.com', limit: 0 }],
    [{ apex: 'example.com', limit: 1001 }],
    [{ apex: 'example.com', limit: 1.5 }],
    [{ apex: 'example.com', limit: '10' }],
    [{ apex: 'example.com', include_first_seen: 'true' }],
    [null],
  ])('both reject %p', (input) => {
    expect({ server: serverAccepts(input), schema: schemaAccepts(input) }).toEqual({
      server: false,
      schema: false,
    });
  });

  test.each([
    ['www.example.com', 'a subdomain'],
    ['co.uk', 'a public suffix'],
    ['github.io', 'a PRIVATE-section public suffix'],
    ['unknowntld.', 'a trailing dot after an unlisted TLD'],
    ['a.b.unknowntld', 'a subdomain under an unlisted TLD (the default rule "*")'],
    ['example.com.', 'a trailing dot (absolute form)'],
  ])(
    'only the server rejects %p (%s: the Public Suffix List and our own rules are not JSON Schema)',
    (apex) => {
      expect({ server: serverAccepts({ apex }), schema: schemaAccepts({ apex }) }).toEqual({
        server: false,
        schema: true,
      });
    },
  );
});
