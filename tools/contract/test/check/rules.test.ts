import { compareManifests } from '../../src/check/diff';
import { type JsonObject, parseManifest } from '../../src/check/manifest';
import { RULES, type RuleName } from '../../src/check/rules';
import {
  allElements,
  type Element,
  endpoint,
  errorStatus,
  lifecycle,
  limit,
  manifest,
  mode,
  otherEndpoint,
  replaced,
  requestBody,
  responseBody,
  scope,
  state,
  tool,
} from './fixtures';

const parse = (elements: Element[]) => parseManifest(JSON.stringify(manifest(elements)), 'test');
const diffIds = (baseline: Element[], candidate: Element[]) =>
  compareManifests(parse(baseline), parse(candidate)).map((change) => change.id);

/** A request body with one property edited (`undefined` removes it). */
const bodyWith = (name: string, schema: JsonObject | undefined, required?: string[]): JsonObject => {
  const body = requestBody();
  const properties = { ...(body.properties as JsonObject) };
  if (schema === undefined) delete properties[name];
  else properties[name] = schema;
  return { ...body, properties, ...(required ? { required } : {}) };
};
const responseWith = (name: string, schema: JsonObject | undefined, required?: string[]): JsonObject => {
  const body = responseBody();
  const properties = { ...(body.properties as JsonObject) };
  if (schema === undefined) delete properties[name];
  else properties[name] = schema;
  return { ...body, properties, ...(required ? { required } : {}) };
};
const postBody = (body: JsonObject) => endpoint({ request_body: body });
const post201 = (body: JsonObject) => endpoint({ responses: { '201': body, '422': null } });

const E = 'rest:POST /api/things';
const RB = `${E}#/request_body/properties`;
const R201 = `${E}#/responses/201/properties`;
const DEPRECATION = { since: '2026-09-01', sunset: '2027-03-01', link: 'https://example.com/deprecations' };

/** [rule, baseline elements, candidate elements, the change id expected among the changes] */
const CASES: [RuleName, Element[], Element[], string][] = [
  ['endpoint-removed', allElements(), replaced([], [E]), `breaking/endpoint-removed/${E}`],
  [
    'tool-removed',
    allElements(),
    replaced([], ['mcp:things_create']),
    'breaking/tool-removed/mcp:things_create',
  ],
  ['mode-removed', allElements(), replaced([], ['mode:sync']), 'breaking/mode-removed/mode:sync'],
  ['state-removed', allElements(), replaced([], ['state:running']), 'breaking/state-removed/state:running'],
  [
    'lifecycle-removed',
    allElements(),
    replaced([], ['lifecycle:quote-run']),
    'breaking/lifecycle-removed/lifecycle:quote-run',
  ],
  ['error-removed', allElements(), replaced([], ['error:409']), 'breaking/error-removed/error:409'],
  [
    'scope-removed',
    allElements(),
    replaced([], ['scope:things:write']),
    'breaking/scope-removed/scope:things:write',
  ],
  [
    'limit-removed',
    allElements(),
    replaced([], ['limit:crt.limit']),
    'breaking/limit-removed/limit:crt.limit',
  ],
  ['endpoint-added', replaced([], [E]), allElements(), `additive/endpoint-added/${E}`],
  ['tool-added', replaced([], ['mcp:things_create']), allElements(), 'additive/tool-added/mcp:things_create'],
  ['mode-added', replaced([], ['mode:sync']), allElements(), 'additive/mode-added/mode:sync'],
  ['state-added', replaced([], ['state:running']), allElements(), 'additive/state-added/state:running'],
  [
    'lifecycle-added',
    replaced([], ['lifecycle:quote-run']),
    allElements(),
    'additive/lifecycle-added/lifecycle:quote-run',
  ],
  ['error-added', replaced([], ['error:409']), allElements(), 'additive/error-added/error:409'],
  [
    'scope-added',
    replaced([], ['scope:things:write']),
    allElements(),
    'additive/scope-added/scope:things:write',
  ],
  ['limit-added', replaced([], ['limit:crt.limit']), allElements(), 'additive/limit-added/limit:crt.limit'],
  [
    'scope-requirement-added',
    allElements(),
    replaced([endpoint({ scopes: ['admin', 'things:write'] })]),
    `breaking/scope-requirement-added/${E}#/scopes/admin`,
  ],
  [
    'scope-requirement-added',
    allElements(),
    replaced([tool({ scope: 'admin' })]),
    'breaking/scope-requirement-added/mcp:things_create#/scope',
  ],
  [
    'scope-requirement-removed',
    allElements(),
    replaced([endpoint({ scopes: [] })]),
    `behavioral-risk/scope-requirement-removed/${E}#/scopes/things:write`,
  ],
  [
    'operation-id-changed',
    allElements(),
    replaced([endpoint({ operation_id: 'makeThing' })]),
    `breaking/operation-id-changed/${E}#/operation_id`,
  ],
  [
    'rate-limit-changed',
    allElements(),
    replaced([endpoint({ rate_limit: 'uploads' })]),
    `behavioral-risk/rate-limit-changed/${E}#/rate_limit`,
  ],
  [
    'response-status-removed',
    allElements(),
    replaced([endpoint({ responses: { '201': responseBody() } })]),
    `breaking/response-status-removed/${E}#/responses/422`,
  ],
  [
    'response-status-added',
    allElements(),
    replaced([endpoint({ responses: { '201': responseBody(), '409': null, '422': null } })]),
    `behavioral-risk/response-status-added/${E}#/responses/409`,
  ],
  [
    'annotations-changed',
    allElements(),
    replaced([tool({ annotations: { readOnlyHint: true } })]),
    'behavioral-risk/annotations-changed/mcp:things_create#/annotations',
  ],
  [
    'mode-no-longer-runnable',
    allElements(),
    replaced([mode({ runnable: false })]),
    'breaking/mode-no-longer-runnable/mode:sync#/runnable',
  ],
  [
    'mode-now-runnable',
    replaced([mode({ runnable: false })]),
    allElements(),
    'additive/mode-now-runnable/mode:sync#/runnable',
  ],
  [
    'state-terminal-changed',
    allElements(),
    replaced([state({ terminal: true })]),
    'behavioral-risk/state-terminal-changed/state:running#/terminal',
  ],
  [
    'state-transition-added',
    allElements(),
    replaced([state({ transitions: ['cancelled', 'failed', 'succeeded'] })]),
    'behavioral-risk/state-transition-added/state:running#/transitions/cancelled',
  ],
  [
    'state-transition-removed',
    allElements(),
    replaced([state({ transitions: ['succeeded'] })]),
    'behavioral-risk/state-transition-removed/state:running#/transitions/failed',
  ],
  [
    'lifecycle-steps-changed',
    allElements(),
    replaced([lifecycle({ steps: ['rest:GET /api/things', 'rest:POST /api/things'] })]),
    'behavioral-risk/lifecycle-steps-changed/lifecycle:quote-run#/steps',
  ],
  [
    'limit-changed',
    allElements(),
    replaced([limit({ value: { min: 1, max: 200 } })]),
    'behavioral-risk/limit-changed/limit:crt.limit#/value',
  ],
  [
    'limit-changed',
    allElements(),
    replaced([limit({ value: { min: 1, max: 50 } })]),
    'behavioral-risk/limit-changed/limit:crt.limit#/value',
  ],
  [
    'deprecated',
    allElements(),
    replaced([endpoint({ deprecated: DEPRECATION })]),
    `behavioral-risk/deprecated/${E}#/deprecated`,
  ],
  [
    'deprecation-changed',
    replaced([endpoint({ deprecated: DEPRECATION })]),
    replaced([endpoint({ deprecated: { ...DEPRECATION, sunset: '2027-01-01' } })]),
    `behavioral-risk/deprecation-changed/${E}#/deprecated`,
  ],
  [
    'undeprecated',
    replaced([endpoint({ deprecated: DEPRECATION })]),
    allElements(),
    `additive/undeprecated/${E}#/deprecated`,
  ],
  [
    'doc-changed',
    allElements(),
    replaced([mode({ description: 'Runs inline.' })]),
    'additive/doc-changed/mode:sync#/description',
  ],
  [
    'doc-changed',
    allElements(),
    replaced([postBody(bodyWith('note', { type: 'string', description: 'Free text.' }))]),
    `additive/doc-changed/${RB}/note/description`,
  ],
  [
    'doc-changed',
    allElements(),
    replaced([errorStatus({ meaning: 'A conflict.' }), scope({ description: 'Write things.' })]),
    'additive/doc-changed/error:409#/meaning',
  ],
  [
    'enum-value-removed',
    allElements(),
    replaced([postBody(bodyWith('kind', { type: 'string', enum: ['a'] }))]),
    `breaking/enum-value-removed/${RB}/kind/enum/b`,
  ],
  [
    'enum-value-removed',
    allElements(),
    replaced([post201(responseWith('status', { type: 'string', enum: ['new'] }))]),
    `breaking/enum-value-removed/${R201}/status/enum/done`,
  ],
  [
    'input-enum-value-added',
    allElements(),
    replaced([postBody(bodyWith('kind', { type: 'string', enum: ['a', 'b', 'c'] }))]),
    `additive/input-enum-value-added/${RB}/kind/enum/c`,
  ],
  [
    'output-enum-value-added',
    allElements(),
    replaced([post201(responseWith('status', { type: 'string', enum: ['new', 'done', 'failed'] }))]),
    `behavioral-risk/output-enum-value-added/${R201}/status/enum/failed`,
  ],
  [
    'response-field-removed',
    allElements(),
    replaced([post201(responseWith('note', undefined))]),
    `breaking/response-field-removed/${R201}/note`,
  ],
  [
    'response-field-removed',
    allElements(),
    replaced([tool({ output_schema: null })]),
    'breaking/response-field-removed/mcp:things_create#/output_schema',
  ],
  [
    'output-field-made-optional',
    allElements(),
    replaced([post201(responseWith('status', { type: 'string', enum: ['new', 'done'] }, ['id']))]),
    `breaking/output-field-made-optional/${R201}/status`,
  ],
  [
    'output-field-made-required',
    allElements(),
    replaced([post201(responseWith('note', { type: 'string' }, ['id', 'note', 'status']))]),
    `additive/output-field-made-required/${R201}/note`,
  ],
  [
    'response-field-added',
    allElements(),
    replaced([post201(responseWith('created_at', { type: 'string' }))]),
    `additive/response-field-added/${R201}/created_at`,
  ],
  [
    'required-input-added',
    allElements(),
    replaced([postBody(bodyWith('owner', { type: 'string' }, ['name', 'owner']))]),
    `breaking/required-input-added/${RB}/owner`,
  ],
  [
    'required-input-added',
    allElements(),
    replaced([postBody(bodyWith('note', { type: 'string' }, ['name', 'note']))]),
    `breaking/required-input-added/${RB}/note`,
  ],
  [
    'required-input-added',
    allElements(),
    replaced([
      endpoint({
        parameters: {
          header: null,
          path: null,
          query: { type: 'object', properties: { dry_run: { type: 'boolean' } }, required: ['dry_run'] },
        },
      }),
    ]),
    `breaking/required-input-added/${E}#/parameters/query`,
  ],
  [
    'optional-input-added',
    allElements(),
    replaced([
      tool({
        input_schema: {
          ...requestBody(),
          properties: { ...(requestBody().properties as JsonObject), x: {} },
        },
      }),
    ]),
    'additive/optional-input-added/mcp:things_create#/input_schema/properties/x',
  ],
  [
    'optional-input-added',
    allElements(),
    replaced([postBody(bodyWith('owner', { type: 'string' }))]),
    `additive/optional-input-added/${RB}/owner`,
  ],
  [
    'input-field-removed',
    allElements(),
    replaced([postBody(bodyWith('note', undefined))]),
    `breaking/input-field-removed/${RB}/note`,
  ],
  [
    'input-made-optional',
    allElements(),
    replaced([postBody(bodyWith('name', { type: 'string', minLength: 1, maxLength: 64 }, []))]),
    `additive/input-made-optional/${RB}/name`,
  ],
  [
    'type-narrowed',
    allElements(),
    replaced([postBody(bodyWith('name', { type: 'string', minLength: 1, maxLength: 32 }))]),
    `breaking/type-narrowed/${RB}/name/maxLength`,
  ],
  [
    'type-narrowed',
    allElements(),
    replaced([postBody(bodyWith('name', { type: 'string', minLength: 2, maxLength: 64 }))]),
    `breaking/type-narrowed/${RB}/name/minLength`,
  ],
  [
    'type-narrowed',
    allElements(),
    replaced([postBody(bodyWith('note', { type: 'string', pattern: '^[a-z]+$' }))]),
    `breaking/type-narrowed/${RB}/note/pattern`,
  ],
  [
    'type-narrowed',
    allElements(),
    replaced([postBody(bodyWith('note', { type: 'string', format: 'email' }))]),
    `breaking/type-narrowed/${RB}/note/format`,
  ],
  [
    'type-narrowed',
    allElements(),
    replaced([postBody(bodyWith('note', { type: 'integer' }))]),
    `breaking/type-narrowed/${RB}/note/type`,
  ],
  [
    'type-narrowed',
    allElements(),
    replaced([postBody(bodyWith('tags', { type: 'array', items: { type: 'string' }, maxItems: 5 }))]),
    `breaking/type-narrowed/${RB}/tags/maxItems`,
  ],
  [
    'input-widened',
    allElements(),
    replaced([postBody(bodyWith('name', { type: 'string', minLength: 1, maxLength: 128 }))]),
    `additive/input-widened/${RB}/name/maxLength`,
  ],
  [
    'input-widened',
    allElements(),
    replaced([postBody(bodyWith('note', { type: ['string', 'null'] }))]),
    `additive/input-widened/${RB}/note/type`,
  ],
  [
    'input-widened',
    allElements(),
    replaced([postBody({ ...requestBody(), additionalProperties: { type: 'string' } })]),
    `additive/input-widened/${E}#/request_body/additionalProperties`,
  ],
  [
    'type-narrowed',
    replaced([postBody({ ...requestBody(), additionalProperties: { type: 'string' } })]),
    allElements(),
    `breaking/type-narrowed/${E}#/request_body/additionalProperties`,
  ],
  [
    'enum-value-removed',
    replaced([postBody(bodyWith('note', { const: 'x' }))]),
    replaced([postBody(bodyWith('note', { const: 'y' }))]),
    `breaking/enum-value-removed/${RB}/note/const/x`,
  ],
  [
    'input-widened',
    allElements(),
    replaced([postBody(bodyWith('note', { anyOf: [{ type: 'string', maxLength: 10 }, { type: 'null' }] }))]),
    `additive/input-widened/${RB}/note/anyOf`,
  ],
  [
    'type-narrowed',
    allElements(),
    replaced([postBody(bodyWith('note', { anyOf: [{ type: 'string', maxLength: 10 }, { type: 'null' }] }))]),
    `breaking/type-narrowed/${RB}/note/maxLength`,
  ],
  [
    'type-narrowed',
    replaced([postBody(bodyWith('note', { anyOf: [{ type: 'string' }, { type: 'null' }] }))]),
    allElements(),
    `breaking/type-narrowed/${RB}/note/anyOf`,
  ],
  [
    'type-narrowed',
    allElements(),
    replaced([postBody(bodyWith('tags', { type: 'array', items: { type: 'string', maxLength: 5 } }))]),
    `breaking/type-narrowed/${RB}/tags/items/maxLength`,
  ],
  [
    'output-type-changed',
    allElements(),
    replaced([post201(responseWith('note', { anyOf: [{ type: 'string' }, { type: 'null' }] }))]),
    `breaking/output-type-changed/${R201}/note/anyOf`,
  ],
  [
    'input-widened',
    allElements(),
    replaced([postBody(bodyWith('note', {}))]),
    `additive/input-widened/${RB}/note/type`,
  ],
  [
    'output-type-changed',
    allElements(),
    replaced([post201(responseWith('id', { type: 'integer' }))]),
    `breaking/output-type-changed/${R201}/id/type`,
  ],
  [
    'output-constraint-changed',
    allElements(),
    replaced([post201(responseWith('id', { type: 'string', maxLength: 36 }))]),
    `behavioral-risk/output-constraint-changed/${R201}/id/maxLength`,
  ],
  [
    'default-changed',
    allElements(),
    replaced([postBody(bodyWith('note', { type: 'string', default: 'none' }))]),
    `behavioral-risk/default-changed/${RB}/note/default`,
  ],
  [
    'schema-changed',
    allElements(),
    replaced([postBody(bodyWith('tags', { type: 'array', items: { type: 'string' }, uniqueItems: true }))]),
    `behavioral-risk/schema-changed/${RB}/tags/uniqueItems`,
  ],
  [
    'unclassified',
    allElements(),
    replaced([lifecycle({ name: 'quote-and-run' })]),
    'behavioral-risk/unclassified/lifecycle:quote-run#/name',
  ],
];

describe('contract check rules', () => {
  it.each(
    CASES.map(([rule, baseline, candidate, id], index) => [`${index} ${rule}`, baseline, candidate, id]),
  )('%s', (_name, baseline, candidate, id) => {
    expect(diffIds(baseline as Element[], candidate as Element[])).toContain(id);
  });

  it('has a case for every rule, and a one-line description for each', () => {
    const expectedRules = new Set(CASES.map(([, , , id]) => id.split('/')[1]));
    expect([...expectedRules].sort()).toEqual(Object.keys(RULES).sort());
    for (const rule of Object.values(RULES)) expect(rule.description).not.toMatch(/\n/);
  });

  it('reports nothing for identical manifests', () => {
    expect(diffIds(allElements(), allElements())).toEqual([]);
  });

  it('classifies each change by its rule', () => {
    const changes = compareManifests(parse(allElements()), parse(replaced([], [E])));
    expect(changes).toEqual([
      expect.objectContaining({ class: 'breaking', rule: 'endpoint-removed', element: E, pointer: '' }),
    ]);
  });

  it('matches the variants of a discriminated union by their discriminator, not their position', () => {
    const variant = (kind: string, extra: JsonObject = {}) => ({
      type: 'object',
      properties: { kind: { const: kind }, size: { type: 'integer', ...extra } },
      required: ['kind'],
    });
    const union = (...variants: JsonObject[]) => postBody({ oneOf: variants });
    const ids = diffIds(
      replaced([union(variant('file'), variant('text'))]),
      replaced([union(variant('blob'), variant('file'), variant('text', { maximum: 5 }))]),
    );
    expect(ids).toEqual([
      `additive/input-widened/${E}#/request_body/oneOf/blob`,
      `breaking/type-narrowed/${E}#/request_body/oneOf/text/properties/size/maximum`,
    ]);
    const removed = diffIds(
      replaced([union(variant('file'), variant('text'))]),
      replaced([union(variant('text'))]),
    );
    expect(removed).toContain(`breaking/type-narrowed/${E}#/request_body/oneOf`);
  });

  it('making an input nullable is one widening, nothing else', () => {
    const ids = diffIds(
      allElements(),
      replaced([postBody(bodyWith('note', { anyOf: [{ type: 'string' }, { type: 'null' }] }))]),
    );
    expect(ids).toEqual([`additive/input-widened/${RB}/note/anyOf`]);
  });

  it('reports one narrowing per keyword, not the whole property', () => {
    const ids = diffIds(
      allElements(),
      replaced([postBody(bodyWith('name', { type: 'string', minLength: 2, maxLength: 32 }))]),
    );
    expect(ids).toEqual([
      `breaking/type-narrowed/${RB}/name/maxLength`,
      `breaking/type-narrowed/${RB}/name/minLength`,
    ]);
  });

  it('rejects an id whose prefix does not match its kind (so a kind never changes under one id)', () => {
    expect(() => parse(replaced([{ ...otherEndpoint(), ...mode(), id: 'rest:GET /api/things' }]))).toThrow(
      'a execution_mode id must start with "mode:"',
    );
  });
});
