import { buildOpenApiDocument } from '../src/index';
import { arr, get, type JsonObject, obj } from './support/json';

/**
 * The quote-first operations of the OpenAPI document (/tmp design "Endpoints (gateway) and scopes"):
 * quote, generic run, cancel, receipt, usage statement and spend diagnostics. The document as a
 * whole (validation, $refs, scopes of every operation) is checked in openapi.test.ts.
 */

const doc = obj({ v: JSON.parse(JSON.stringify(buildOpenApiDocument())) }, 'v');
const operation = (p: string, method: string): JsonObject => obj(doc, 'paths', p, method);
const codes = (op: JsonObject): string[] => Object.keys(obj(op, 'responses')).sort();
const bodyRef = (op: JsonObject, status: string): unknown =>
  get(op, 'responses', status, 'content', 'application/json', 'schema', '$ref');
const params = (op: JsonObject): string[] =>
  arr(op, 'parameters').map((p) => `${String(get(p, 'in'))}:${String(get(p, 'name'))}`);

describe('quote and run (spec §4.3, §4.4)', () => {
  const quote = operation('/api/capabilities/{slug}/quote', 'post');
  const run = operation('/api/capabilities/{slug}/run', 'post');

  test('quote: capabilities:quote, slug path parameter, QuoteRequest body, QuoteResponse, never 402', () => {
    expect(quote.operationId).toBe('quoteCapability');
    expect(quote['x-required-scopes']).toEqual(['capabilities:quote']);
    expect(params(quote)).toEqual(['path:slug']);
    expect(get(quote, 'requestBody', 'content', 'application/json', 'schema')).toEqual(
      get(doc, 'components', 'schemas', 'QuoteRequest'),
    );
    expect(get(quote, 'requestBody', 'content', 'application/json', 'schema')).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { input: { type: 'object', default: {} }, client_type: { default: 'api' } },
    });
    expect(bodyRef(quote, '200')).toBe('#/components/schemas/QuoteResponse');
    // An uncleared quote is still a 200 quote; only the run is stopped by the wallet.
    expect(codes(quote)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(get(quote, 'responses', '409', 'description')).toEqual(expect.stringContaining('describe_only'));
  });

  test('run: capabilities:run, optional Idempotency-Key, 202 + Location, 200 + Idempotent-Replayed, 402', () => {
    expect(run.operationId).toBe('runCapability');
    expect(run['x-required-scopes']).toEqual(['capabilities:run']);
    expect(params(run)).toEqual(['path:slug', 'header:idempotency-key', 'header:prefer']);
    const header = arr(run, 'parameters')[1];
    expect(header).toMatchObject({
      schema: { type: 'string', minLength: 8, maxLength: 190, pattern: '^[A-Za-z0-9._:-]+$' },
    });
    expect(get(header, 'required')).toBeFalsy();
    expect(String(get(header, 'description'))).toContain('required for paid capabilities');
    expect(get(run, 'requestBody', 'content', 'application/json', 'schema')).toEqual(
      get(doc, 'components', 'schemas', 'RunRequest'),
    );
    expect(bodyRef(run, '202')).toBe('#/components/schemas/RunStartResponse');
    expect(bodyRef(run, '200')).toBe('#/components/schemas/RunStartResponse');
    expect(get(run, 'responses', '202', 'headers', 'Location', 'required')).toBe(true);
    expect(get(run, 'responses', '200', 'headers', 'Idempotent-Replayed', 'schema')).toMatchObject({
      const: 'true',
    });
    expect(get(run, 'responses', '200', 'headers', 'Idempotent-Replayed', 'required')).toBeUndefined();
    expect(codes(run)).toEqual(
      [
        '200',
        '202',
        '400',
        '401',
        '402',
        '403',
        '404',
        '409',
        '413',
        '415',
        '422',
        '429',
        '500',
        '503',
      ].sort(),
    );
    expect(bodyRef(run, '402')).toBe('#/components/schemas/ErrorResponse');
    expect(get(run, 'responses', '402', 'description')).toEqual(expect.stringContaining('spend cap'));
  });

  test('402 is declared exactly where the wallet can stop a run', () => {
    const with402 = Object.entries(obj(doc, 'paths')).flatMap(([p, item]) =>
      Object.entries(obj({ item }, 'item'))
        .filter(([, op]) => get(op, 'responses', '402') !== undefined)
        .map(([method]) => `${method} ${p}`),
    );
    expect(with402).toEqual(['post /api/capabilities/{slug}/run']);
  });

  test('the crt route keeps its own concrete path next to the templated run', () => {
    expect(operation('/api/capabilities/crt/run', 'post').operationId).toBe('runCrt');
  });
});

describe('cancel and receipt (spec §4.10, §4.11)', () => {
  test('cancel: capabilities:run, no body, 200 cancelled or 202 requested (with Location), 409', () => {
    const cancel = operation('/api/capability-runs/{run_id}/cancel', 'post');
    expect(cancel.operationId).toBe('cancelRun');
    expect(cancel['x-required-scopes']).toEqual(['capabilities:run']);
    expect(get(cancel, 'requestBody')).toBeUndefined();
    expect(params(cancel)).toEqual(['path:run_id']);
    expect(bodyRef(cancel, '200')).toBe('#/components/schemas/RunStatusResponse');
    expect(bodyRef(cancel, '202')).toBe('#/components/schemas/RunStatusResponse');
    expect(get(cancel, 'responses', '202', 'headers', 'Location', 'required')).toBe(true);
    expect(codes(cancel)).toEqual(['200', '202', '401', '403', '404', '409', '422', '429', '500', '503']);
    expect(get(cancel, 'responses', '409', 'description')).toEqual(
      expect.stringContaining('already finished'),
    );
  });

  test('receipt: billing:read, RunReceiptResponse with the run, its quote and ledger lines', () => {
    const receipt = operation('/api/capability-runs/{run_id}/receipt', 'get');
    expect(receipt.operationId).toBe('getRunReceipt');
    expect(receipt['x-required-scopes']).toEqual(['billing:read']);
    expect(params(receipt)).toEqual(['path:run_id']);
    expect(bodyRef(receipt, '200')).toBe('#/components/schemas/RunReceiptResponse');
    expect(codes(receipt)).toEqual(['200', '401', '403', '404', '422', '429', '500', '503']);
    const schema = obj(doc, 'components', 'schemas', 'RunReceiptResponse');
    expect(get(schema, 'properties', 'run', '$ref')).toBe('#/components/schemas/RunRecord');
    expect(get(schema, 'properties', 'ledger', '$ref')).toBe('#/components/schemas/RunLedger');
    expect(get(doc, 'components', 'schemas', 'RunLedger', 'properties', 'lines', 'items', '$ref')).toBe(
      '#/components/schemas/LedgerLine',
    );
  });
});

describe('account statements (spec §4.13, §4.14)', () => {
  test('usage statement: billing:read, from/to/slug/limit query, 422', () => {
    const statement = operation('/api/account/usage-statement', 'get');
    expect(statement.operationId).toBe('getUsageStatement');
    expect(statement['x-required-scopes']).toEqual(['billing:read']);
    expect(params(statement).sort()).toEqual(['query:from', 'query:limit', 'query:slug', 'query:to']);
    const limit = arr(statement, 'parameters').find((p) => get(p, 'name') === 'limit');
    expect(get(limit, 'schema')).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000, default: 100 });
    const from = arr(statement, 'parameters').find((p) => get(p, 'name') === 'from');
    expect(get(from, 'schema')).toMatchObject({ type: 'string', format: 'date-time' });
    expect(bodyRef(statement, '200')).toBe('#/components/schemas/UsageStatementResponse');
    expect(codes(statement)).toEqual(['200', '401', '403', '422', '429', '500', '503']);
  });

  test('spend diagnostics: billing:read, no parameters, SpendDiagnosticsResponse', () => {
    const diagnostics = operation('/api/account/spend-diagnostics', 'get');
    expect(diagnostics.operationId).toBe('getSpendDiagnostics');
    expect(diagnostics['x-required-scopes']).toEqual(['billing:read']);
    expect(get(diagnostics, 'parameters')).toBeUndefined();
    expect(bodyRef(diagnostics, '200')).toBe('#/components/schemas/SpendDiagnosticsResponse');
    expect(codes(diagnostics)).toEqual(['200', '401', '403', '422', '429', '500', '503']);
    expect(arr(doc, 'components', 'schemas', 'SpendDiagnosticsResponse', 'required').sort()).toEqual(
      [
        'ok',
        'client_id',
        'currency',
        'as_of',
        'balance_usd',
        'held_usd',
        'spend_cap_usd',
        'spent_this_period_usd',
        'remaining_usd',
        'burn_rate',
        'projection',
        'top_capabilities',
      ].sort(),
    );
  });
});

test('quote types are components: Quote carries its clearance figures, price detail and execution', () => {
  const schemas = obj(doc, 'components', 'schemas');
  expect(get(schemas, 'Quote', 'properties', 'wallet_clearance', '$ref')).toBe(
    '#/components/schemas/WalletClearance',
  );
  expect(get(schemas, 'Quote', 'properties', 'price_detail', '$ref')).toBe(
    '#/components/schemas/PriceDetail',
  );
  expect(get(schemas, 'Quote', 'properties', 'execution', '$ref')).toBe(
    '#/components/schemas/QuoteExecution',
  );
  expect(Object.keys(obj(schemas, 'WalletClearance', 'properties')).sort()).toEqual(
    [
      'balance_usd',
      'cleared',
      'held_usd',
      'reason',
      'remaining_after_usd',
      'remaining_usd',
      'spend_cap_usd',
      'spent_usd',
    ].sort(),
  );
  expect(get(schemas, 'RunStartResponse', 'properties', 'run', '$ref')).toBe(
    '#/components/schemas/RunRecord',
  );
});
