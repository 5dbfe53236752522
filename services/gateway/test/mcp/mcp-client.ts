import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

/** The nine tool names exactly as spec §4 rule 6 spells them (written out: the test's own oracle). */
export const TOOL_NAMES = [
  'svc_capabilities_search',
  'svc_capability_describe',
  'svc_account_balance',
  'svc_tool_quote',
  'svc_tool_run',
  'svc_tool_status',
  'svc_tool_cancel',
  'svc_tool_artifacts',
  'svc_upload_session_create',
] as const;

/**
 * An SDK client over real streamable HTTP to `<baseUrl>/mcp`, sending the API key as a bearer. It
 * lists the tools once, as agents do: the SDK client then checks every `structuredContent` against
 * its tool's `outputSchema` and throws on a mismatch, so each call in the tests checks that too.
 */
export async function connectMcp(baseUrl: string, apiKey: string): Promise<Client> {
  const client = new Client({ name: 'gateway-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  await client.listTools();
  return client;
}

/** Calls a tool and narrows the result to a CallToolResult (the SDK's union also allows task results). */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return CallToolResultSchema.parse(await client.callTool({ name, arguments: args }));
}

/** The text of a tool result's first content block (the summary, or the error message). */
export function firstText(result: CallToolResult): string {
  const block = result.content[0];
  if (block === undefined || block.type !== 'text') throw new Error('first content block is not text');
  return block.text;
}

/** A JSON-RPC POST to /mcp with raw fetch, for the HTTP-level answers (401, 403, 405). */
export function rawMcpPost(
  baseUrl: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Response> {
  return fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(
      body ?? {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
    ),
  });
}
