import { McpJsonRpcMessage } from '../mcp';
import type { ApiOperation } from './operation';

/** The MCP endpoint (spec §4.21, §4 rule 6; docs/decisions.md M1-M8). */
export const mcpOperations: readonly ApiOperation[] = [
  {
    method: 'post',
    path: '/mcp',
    operationId: 'mcp',
    summary: 'MCP over streamable HTTP',
    description:
      'The same contract as this API for MCP clients (client configuration: type `streamable-http`, this ' +
      'URL, header `Authorization: Bearer <API_KEY>`). Stateless: every POST carries one JSON-RPC message ' +
      'and needs no session. Tools: svc_capabilities_search, svc_capability_describe, svc_account_balance, ' +
      'svc_tool_quote, svc_tool_run, svc_tool_status, svc_tool_cancel, svc_tool_artifacts, ' +
      'svc_upload_session_create; each checks the scope of its REST twin and answers an error result with ' +
      'the REST message. The answer is `application/json`, or `text/event-stream` when the client accepts ' +
      'it (progress notifications, then the response). Past authentication, protocol errors are JSON-RPC ' +
      'errors, not ErrorResponse: 400 (-32700, malformed JSON), 406, 413 (over 4 MiB) and 415. A ' +
      'notification or a response sent by the client is answered 202 with no body.',
    tags: ['mcp'],
    auth: { kind: 'key', scopes: [] },
    body: { schema: McpJsonRpcMessage, description: 'One JSON-RPC 2.0 message.' },
    success: {
      status: 200,
      description: 'The JSON-RPC response (or an SSE stream ending with it).',
      schema: McpJsonRpcMessage,
    },
    errors: [401, 403, 405, 500, 503],
    errorNotes: {
      403: 'The Host or Origin header is not one this endpoint serves (DNS-rebinding defence).',
      405: 'GET and DELETE: the endpoint keeps no sessions and offers no standalone stream.',
    },
  },
];
