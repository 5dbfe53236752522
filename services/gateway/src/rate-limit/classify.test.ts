import { apiOperations, MCP_TOOL_BUDGETS, MCP_TOOL_NAMES, rateLimitClassOf } from '@svc/contracts';
import { RouteTable } from '../routing/route-table';
import { mcpMessageBudget, requestClassOf } from './classify';

// The app's one path table (routing/route-table.ts), over every operation of the contracts: a
// request is classified by the operation it matched.
const table = new RouteTable(apiOperations.map((operation) => ({ operation })));
const classifier = {
  classify(method: string, path: string) {
    const match = table.match(method, path);
    return requestClassOf(match?.kind === 'operation' ? match.route.operation : undefined);
  },
};
const UUID = '0b5c6f8e-2a4d-4c1e-9f3a-7d8e9f0a1b2c';

describe('request classes', () => {
  it.each([
    ['GET', '/api/capabilities', 'reads', 'public'],
    ['GET', '/api/capabilities/crt', 'reads', 'public'],
    ['POST', '/api/capabilities/pii-redact/quote', 'quotes', 'key'],
    ['POST', '/api/capabilities/pii-redact/run', 'runs', 'key'],
    ['POST', '/api/capabilities/crt/run', 'runs', 'key'],
    ['GET', `/api/capability-runs/${UUID}`, 'reads', 'key'],
    ['POST', `/api/capability-runs/${UUID}/cancel`, 'runs', 'key'],
    ['GET', `/api/capability-runs/${UUID}/receipt`, 'reads', 'key'],
    ['GET', `/api/capability-runs/${UUID}/artifacts`, 'reads', 'key'],
    ['POST', '/api/capabilities/pdf-extract-text/upload-session', 'transfers', 'key'],
    ['PUT', `/api/capability-uploads/${UUID}`, 'transfers', 'upload-token'],
    ['GET', `/api/capability-uploads/${UUID}`, 'reads', 'key'],
    ['GET', `/api/artifacts/${UUID}/download`, 'transfers', 'key'],
    ['GET', '/api/account/balance', 'reads', 'key'],
    ['GET', '/api/account/whoami/', 'reads', 'key'],
    ['HEAD', '/api/account/usage-statement', 'reads', 'key'],
    ['POST', '/mcp', 'per-tool-call', 'key'],
    ['GET', '/healthz', 'exempt', 'public'],
    ['GET', '/readyz', 'exempt', 'public'],
    ['GET', '/openapi.json', 'exempt', 'public'],
  ])('%s %s spends from %s (%s)', (method, path, rateLimit, auth) => {
    expect(classifier.classify(method, path)).toMatchObject({ rateLimit, auth });
  });

  it('treats a path or method no operation serves as a public read (404/405 are counted per address)', () => {
    expect(classifier.classify('GET', '/nope')).toEqual({ rateLimit: 'reads', auth: 'public' });
    expect(classifier.classify('DELETE', '/api/account/balance')).toEqual({
      rateLimit: 'reads',
      auth: 'public',
    });
    expect(classifier.classify('GET', '/mcp')).toEqual({ rateLimit: 'reads', auth: 'public' });
    // A templated segment never spans a slash.
    expect(classifier.classify('POST', '/api/capabilities/a/b/quote')).toEqual({
      rateLimit: 'reads',
      auth: 'public',
    });
  });

  it('classifies every operation of the OpenAPI document as the document states', () => {
    for (const op of apiOperations) {
      const path = op.path.replace(/\{[^}]+\}/g, 'x1');
      expect({ op: op.operationId, ...classifier.classify(op.method, path) }).toMatchObject({
        op: op.operationId,
        rateLimit: rateLimitClassOf(op),
        auth: op.auth.kind,
        operationId: op.operationId,
      });
    }
  });

  it('refuses an operation other than GET that declares no budget', () => {
    const [first] = apiOperations;
    if (first === undefined) throw new Error('no operations');
    expect(() => requestClassOf({ ...first, method: 'post', rateLimit: undefined })).toThrow(
      /declares no rate-limit budget/,
    );
  });
});

describe('mcpMessageBudget', () => {
  const twin: Record<string, [string, string]> = {
    svc_capabilities_search: ['GET', '/api/capabilities'],
    svc_capability_describe: ['GET', '/api/capabilities/crt'],
    svc_account_balance: ['GET', '/api/account/balance'],
    svc_tool_quote: ['POST', '/api/capabilities/pii-redact/quote'],
    svc_tool_run: ['POST', '/api/capabilities/pii-redact/run'],
    svc_tool_status: ['GET', `/api/capability-runs/${UUID}`],
    svc_tool_cancel: ['POST', `/api/capability-runs/${UUID}/cancel`],
    svc_tool_artifacts: ['GET', `/api/capability-runs/${UUID}/artifacts`],
    svc_upload_session_create: ['POST', '/api/capabilities/pdf-extract-text/upload-session'],
  };

  it.each(MCP_TOOL_NAMES.map((name) => [name]))('%s spends from the budget of its REST twin', (name) => {
    const [method, path] = twin[name] ?? ['', ''];
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } };
    expect(mcpMessageBudget(message)).toBe(classifier.classify(method, path).rateLimit);
    expect(mcpMessageBudget(message)).toBe(MCP_TOOL_BUDGETS[name]);
  });

  it('counts any other message, and anything malformed, as a read', () => {
    for (const message of [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'no_such_tool' } },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'toString' } },
      { jsonrpc: '2.0', id: 1, method: 'tools/call' },
      null,
      'text',
      42,
    ]) {
      expect(mcpMessageBudget(message)).toBe('reads');
    }
  });
});
