import { apiOperations } from '@svc/contracts';
import { type RouteMatch, RouteTable } from './route-table';

const table = new RouteTable(apiOperations.map((operation) => ({ operation })));
const UUID = '0b5c6f8e-2a4d-4c1e-9f3a-7d8e9f0a1b2c';

/** What a request matched, in one line: `<operationId>` or `405 <Allow>`, or `404`. */
function outcome(match: RouteMatch<{ operation: { operationId: string } }> | undefined): string {
  if (match === undefined) return '404';
  return match.kind === 'operation' ? match.route.operation.operationId : `405 ${match.entry.allow}`;
}

describe('RouteTable over the contract operations (the one path table of the gateway)', () => {
  it.each([
    ['GET', '/api/capabilities', 'listCapabilities'],
    ['GET', '/api/capabilities/', 'listCapabilities'],
    ['GET', '/API/Capabilities', 'listCapabilities'],
    ['HEAD', '/api/capabilities/crt', 'describeCapability'],
    ['POST', '/api/capabilities/crt/run', 'runCrt'],
    ['POST', '/API/capabilities/crt/run/', 'runCrt'],
    // The crt segment is matched in its own letter case only: the generic run gets `CRT` (and 422s it).
    ['POST', '/api/capabilities/CRT/run', 'runCapability'],
    ['POST', '/api/capabilities/pii-redact/run', 'runCapability'],
    ['POST', '/api/capabilities/crt/quote', 'quoteCapability'],
    ['GET', `/api/capability-runs/${UUID}/artifacts`, 'listRunArtifacts'],
    ['PUT', `/api/capability-uploads/${UUID}`, 'putUploadBytes'],
    ['GET', `/api/capability-uploads/${UUID}`, 'getUpload'],
    ['DELETE', '/api/vault/fields/email', 'deleteVaultField'],
    ['POST', '/mcp', 'mcp'],
    ['GET', '/healthz', 'health'],
    // 405 with the methods of the path, as express's route.all answered them.
    ['GET', '/api/capabilities/crt/run', '405 POST, OPTIONS'],
    ['DELETE', '/api/capabilities/crt', '405 GET, HEAD, OPTIONS'],
    ['OPTIONS', '/api/account/balance', '405 GET, HEAD, OPTIONS'],
    ['PATCH', `/api/capability-uploads/${UUID}`, '405 GET, PUT, HEAD, OPTIONS'],
    ['POST', '/api/vault/fields/', 'saveVaultField'],
    ['PROPFIND', '/api/vault/fields', '405 GET, POST, HEAD, OPTIONS'],
    ['GET', '/mcp', '405 POST, OPTIONS'],
    // No operation's path: a parameter is one non-empty segment, one trailing slash at most.
    ['GET', '/nope', '404'],
    ['POST', '/api/capabilities/a/b/quote', '404'],
    ['GET', '/api/capabilities//', '404'],
    ['GET', '/api/capabilities//quote', '404'],
    ['GET', '//api/capabilities', '404'],
    ['GET', '/mcp/x', '404'],
  ])('%s %s → %s', (method, path, expected) => {
    expect(outcome(table.match(method, path))).toBe(expected);
  });

  it('hands out the path parameters as sent (decoded where the route runs)', () => {
    expect(table.match('GET', '/api/capabilities/a%2Fb')?.rawParams).toEqual({ slug: 'a%2Fb' });
    expect(table.match('DELETE', '/api/capabilities/a%E0')?.rawParams).toEqual({ slug: 'a%E0' });
  });

  it('names each path for the request metrics as express did (`:name` parameters)', () => {
    const match = table.match('POST', `/api/capability-runs/${UUID}/cancel`);
    expect(match?.entry.metricsLabel).toBe('/api/capability-runs/:run_id/cancel');
    expect(table.match('PUT', '/healthz')?.entry.metricsLabel).toBe('/healthz');
  });

  it('refuses two routes for one method and path', () => {
    const [first] = apiOperations;
    if (first === undefined) throw new Error('no operations');
    expect(() => new RouteTable([{ operation: first }, { operation: { ...first } }])).toThrow(/served twice/);
  });
});
