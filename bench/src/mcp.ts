// Issue 6's benchmark: `svc_capability_describe` through MCP (`POST /mcp`, JSON-RPC `tools/call`,
// stateless: a new server and transport per request) beside the REST describe it twins, in the
// same run and stack, at the same connections. Both answer from the gateway's catalog cache. REST
// describe is public: it ignores the key it is sent, where every MCP request verifies it (a
// PostgreSQL lookup). The whoami row (the same key, no catalog) shows what that check costs on its
// own, so MCP minus REST describe is the key check plus the MCP layer: JSON-RPC parsing, the
// per-request server, tool dispatch and the framing of the answer. Issue 15: REST describe and MCP
// are measured alternately (measureAgainst) and their ratio printed beside the target (≥ 0.5×).
import { formatRowCosts, openCostMeter } from './cpu-cost';
import { type LoadOptions, type LoadResult, measure, measureAgainst } from './load';
import { formatTable, ratioLine } from './report';
import { startBenchStack } from './stack-start';

const PROTOCOL_VERSION = '2025-11-25';
/** The platform's processes, each counted in the CPU per request. */
const SERVICES = ['gateway', 'registry', 'wallet'] as const;

export async function benchMcp(options: LoadOptions): Promise<void> {
  const stack = await startBenchStack({ services: SERVICES });
  const meter = await openCostMeter({ stack, services: SERVICES });
  try {
    const key = await stack.createApiKey({ scopes: ['capabilities:read'], clientName: 'bench-mcp' });
    const api = stack.gatewayUrl;
    const rows: LoadResult[] = [];
    const whoami = await measure(
      {
        name: 'REST GET /api/account/whoami (key check only)',
        url: `${api}/api/account/whoami`,
        headers: { authorization: `Bearer ${key.apiKey}` },
      },
      options,
      meter,
    );
    const headers = {
      authorization: `Bearer ${key.apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL_VERSION,
    };
    const bodyFor = (n: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: n,
        method: 'tools/call',
        params: { name: 'svc_capability_describe', arguments: { slug: 'crt' } },
      });
    // A 200 with an error result would be measured as a success: check one call's answer first.
    // An error result is HTTP 200 too: every answer is checked to be a result with structuredContent.
    const succeeded = (answer: string) =>
      answer.includes('"structuredContent"') && !answer.includes('"isError":true');
    const probe = await fetch(`${api}/mcp`, { method: 'POST', headers, body: bodyFor(0) });
    const answer = await probe.text();
    if (probe.status !== 200 || !succeeded(answer)) {
      throw new Error(`MCP describe did not succeed (${probe.status}): ${answer.slice(0, 300)}`);
    }
    const { baseline: rest, target: mcp } = await measureAgainst(
      {
        name: 'REST GET /api/capabilities/crt',
        url: `${api}/api/capabilities/crt`,
        headers: { authorization: `Bearer ${key.apiKey}` },
      },
      {
        name: 'MCP tools/call svc_capability_describe',
        url: `${api}/mcp`,
        method: 'POST',
        headers,
        bodyFor,
        acceptBody: succeeded,
      },
      options,
      { baseline: meter, target: meter },
    );
    if (mcp.rejected > 0) throw new Error(`${mcp.rejected} MCP answers were not successful tool results`);
    rows.push(rest, whoami, mcp);
    console.log(
      `\nmcp: describe crt through MCP vs REST (${options.connections} connections; REST and MCP measured ` +
        'alternately, REST, MCP, MCP, REST, halves combined: p50 = mean of the halves, p99 = the larger)',
    );
    console.log(formatTable(rows, rest));
    console.log(formatRowCosts(rows));
    console.log(
      ratioLine('MCP describe req/s ÷ REST describe req/s', mcp.requestsPerSecond, rest.requestsPerSecond, {
        atLeast: 0.8,
      }),
    );
  } finally {
    await meter.close();
    await stack.close();
  }
}
