import fc from 'fast-check';
import { z } from 'zod';

/**
 * Generators of malformed requests for the OpenAPI fuzz suite (openapi-fuzz.int.test.ts), driven by
 * the served `/openapi.json` so a new operation is fuzzed without touching the suite: each
 * operation's path, query and header parameters and its body's members come from the document.
 * The values aim at what broke before (issue 13): NUL and lone surrogates (PostgreSQL refuses them),
 * deep nesting (stack overflows), huge numbers (1e400 parses to Infinity), wrong types and unknown
 * fields, mixed with near-valid values so that one defect at a time gets past the first checks into
 * the services.
 */

const Parameter = z.object({ name: z.string(), in: z.enum(['path', 'query', 'header', 'cookie']) });
const ObjectSchema = z.object({
  $ref: z.string().optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
});
type ObjectSchema = z.infer<typeof ObjectSchema>;
const Operation = z.object({
  parameters: z.array(Parameter).optional(),
  requestBody: z
    .object({ content: z.record(z.string(), z.object({ schema: ObjectSchema.optional() })) })
    .optional(),
});
const Document = z.object({
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.object({ schemas: z.record(z.string(), ObjectSchema).optional() }).optional(),
});

export interface FuzzOperation {
  readonly method: string;
  /** The OpenAPI template, e.g. `/api/capabilities/{slug}/quote`. */
  readonly template: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  readonly headerParams: readonly string[];
  readonly takesBody: boolean;
  /** The top-level members of its JSON body schema (`input`, `quote_id`, …). */
  readonly bodyMembers: readonly string[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of an OpenAPI document (unknown keys of a path item, e.g. `parameters`, skipped). */
export function operationsOf(document: unknown): FuzzOperation[] {
  const doc = Document.parse(document);
  const resolve = (schema: ObjectSchema | undefined): ObjectSchema | undefined =>
    schema?.$ref === undefined ? schema : doc.components?.schemas?.[schema.$ref.split('/').pop() ?? ''];
  const operations: FuzzOperation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const op = Operation.parse(raw);
      const names = (where: string) => (op.parameters ?? []).filter((p) => p.in === where).map((p) => p.name);
      const bodySchema = resolve(op.requestBody?.content['application/json']?.schema);
      operations.push({
        method: method.toUpperCase(),
        template,
        pathParams: names('path'),
        queryParams: names('query'),
        headerParams: names('header'),
        takesBody: op.requestBody !== undefined,
        bodyMembers: Object.keys(bodySchema?.properties ?? {}),
      });
    }
  }
  return operations;
}

/** Text that broke things, and text that looks valid. */
const NASTY_TEXT = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '😀',
  '',
  ' ',
  '%00',
  '../..',
  "'; DROP TABLE runs; --",
  'example.com',
  'jane@example.com',
  'pii-redact',
  'report.pdf',
  'application/pdf',
  '00000000-0000-0000-0000-000000000000',
  '8a1c7d0e-2f4b-4c5d-9e6f-7a8b9c0d1e2f',
  'x'.repeat(5_000),
];

export const fuzzText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

// Numbers JSON.stringify cannot write, spliced into the body text in place of these markers.
const RAW_NUMBERS: Record<string, string> = {
  '"\ue000huge"': '1e400',
  '"\ue000-huge"': '-1e400',
  '"\ue000long"': '123456789012345678901234567890123456789',
  '"\ue000tiny"': '1e-400',
};
const rawNumber = fc.constantFrom(...Object.keys(RAW_NUMBERS).map((marker) => JSON.parse(marker)));

/** JSON text of `levels` arrays and objects inside each other (JSON.stringify overflows past ~4,000). */
function nestedText(levels: number): string {
  let open = '';
  let close = '';
  for (let i = 0; i < levels; i += 1) {
    open += i % 2 === 0 ? '[' : '{"a":';
    close = (i % 2 === 0 ? ']' : '}') + close;
  }
  return `${open}"x"${close}`;
}

// Deep nesting travels as a marker string through the generated value and is spliced in as text.
const DEEP_MARKER = /"\ue001deep(\d+)"/g;
const deepValue = fc.integer({ min: 60, max: 6_000 }).map((levels) => `\ue001deep${levels}`);

/** The JSON text of a generated value, with the raw numbers and deep nesting spliced in. */
export function toJsonText(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  const withNumbers = Object.entries(RAW_NUMBERS).reduce(
    (out, [marker, raw]) => out.replaceAll(marker, raw),
    text,
  );
  return withNumbers.replace(DEEP_MARKER, (_match, levels: string) => nestedText(Number(levels)));
}

/** A JSON value with everything above in it, including nesting far past any limit (up to 6,000). */
export const fuzzValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fuzzText,
    fc.integer(),
    fc.double(),
    fc.constantFrom(true, false, null, 0, -1, 2 ** 53 + 1),
    rawNumber,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fuzzText, tie('value'), { maxKeys: 4 }),
    deepValue,
  ),
})).value;

const INPUT_KEYS = [
  'text',
  'html',
  'apexes',
  'apex',
  'limit',
  'filename',
  'content_type',
  'size_bytes',
  'upload_id',
];

/** A capability input: one or two of the usual keys with fuzzed values, sometimes anything at all. */
export const fuzzInput: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.dictionary(fc.constantFrom(...INPUT_KEYS), fuzzValue, { minKeys: 1, maxKeys: 2 }),
  },
  { weight: 1, arbitrary: fc.dictionary(fuzzText, fuzzValue, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fuzzValue },
);

/** Near-valid values for the envelope members the body routes share; any other member is fuzzValue. */
const MEMBER_VALUES: Record<string, fc.Arbitrary<unknown>> = {
  input: fuzzInput,
  quote_id: fc.oneof({ weight: 3, arbitrary: fc.uuid() }, { weight: 1, arbitrary: fuzzValue }),
  client_type: fc.oneof({ weight: 3, arbitrary: fc.constant('api') }, { weight: 1, arbitrary: fuzzValue }),
};

/** A body with the members its schema names, each present or not, and now and then one it does not. */
function fuzzEnvelope(members: readonly string[]): fc.Arbitrary<unknown> {
  const record = fc.record(
    Object.fromEntries(members.map((name) => [name, MEMBER_VALUES[name] ?? fuzzValue])),
    {
      requiredKeys: [],
    },
  );
  return fc
    .tuple(record, fc.option(fuzzValue, { freq: 6 }))
    .map(([body, extra]) => (extra === null ? body : { ...body, unknown_field: extra }));
}

export interface FuzzBody {
  readonly text: string;
  readonly contentType: string | undefined;
}

/** A body for an operation whose JSON body has `members`: JSON of the above, or not JSON at all. */
export function fuzzBody(members: readonly string[]): fc.Arbitrary<FuzzBody> {
  const json = fc
    .oneof({ weight: 4, arbitrary: fuzzEnvelope(members) }, { weight: 1, arbitrary: fuzzValue })
    .map((value): FuzzBody => ({ text: toJsonText(value), contentType: 'application/json' }));
  const broken = fc.record({
    text: fc.constantFrom('', '{', '{"input":', 'null', '[]', '"\\u0000"', '{"a":1e400}', 'not json'),
    contentType: fc.constantFrom('application/json', 'text/plain', 'application/merge-patch+json', undefined),
  });
  return fc.oneof({ weight: 6, arbitrary: json }, { weight: 1, arbitrary: broken });
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Percent-encodes UTF-8 bytes (a lone surrogate becomes U+FFFD, as in any real URL), or raw bad escapes. */
export const fuzzUrlText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fuzzText.map((text) => encodeURIComponent(text.replace(UNPAIRED_SURROGATE, '\uFFFD'))),
  },
  { weight: 1, arbitrary: fc.constantFrom('%00', '%ED%A0%80', '%', '%zz', '%C0%80', 'a%2Fb') },
);

/** A header value fetch (undici) can send: tab, printable ASCII and latin-1 only. */
export const fuzzHeaderValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('k-1', '', ' ', 'x'.repeat(300), 'ünïcödé', '8a1c7d0e-2f4b-4c5d-9e6f-7a8b9c0d1e2f'),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => s.replace(/[^\t\x20-\x7e\x80-\xff]/g, '')),
);
