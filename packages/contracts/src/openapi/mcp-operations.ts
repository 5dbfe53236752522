import { McpJsonRpcMessage } from '../mcp';
import { defineOperation } from './operation-types';

/** The MCP endpoint (spec §4.21, §4 rule 6; docs/decisions.md M1-M8). */
export const mcpOperations = [
  defineOperation({
    method: 'post',
    path: '/mcp',
    operationId: 'mcp',
    rateLimit: 'per-tool-call',
    summary: 'MCP over streamable HTTP',
    description:
      'The same contract as this API for MCP clients (client configuration: type `streamable-http`, this ' +
      'URL, header `Authorization: Bearer <API_KEY>`). Stateless: a POST carries one JSON-RPC message (or ' +
      'a batch of at most 100) and needs no session and no prior initialize. Tools: ' +
      'svc_capabilities_search, svc_capability_describe, svc_account_balance, svc_tool_quote, ' +
      'svc_tool_run, svc_tool_status, svc_tool_cancel, svc_tool_artifacts, svc_upload_session_create; ' +
      'each checks the scope of its REST twin and answers an error result with the REST message. ' +
      'A request is answered with its JSON-RPC response as `application/json`, or, when it asked for ' +
      'progress (`params._meta.progressToken`), as a `text/event-stream` of the progress notifications ' +
      'and then the response; the client must accept both media types. Past authentication, protocol errors are ' +
      'JSON-RPC errors in `application/json`, not ErrorResponse: 400 (-32700, malformed JSON or not ' +
      'JSON-RPC; -32000, an MCP-Protocol-Version the server does not speak), 406 (the ' +
      'Accept header lacks one of the two), 413 (over 4 MiB) and 415. A notification or a response sent ' +
      'by the client is answered 202 with no body.',
    tags: ['mcp'],
    auth: { kind: 'key', scopes: [] },
    body: { schema: McpJsonRpcMessage, description: 'One JSON-RPC 2.0 message.' },
    // The SSE framing (`event: message`, `data:` one JSON-RPC message per event) has no JSON schema.
    success: {
      status: 200,
      description:
        'The JSON-RPC response; with a progressToken, an SSE stream of `notifications/progress` then the response.',
      schema: McpJsonRpcMessage,
      alsoAs: ['text/event-stream'],
    },
    errors: [401, 403, 405, 500, 503],
    errorNotes: {
      403: 'The Host or Origin header is not one this endpoint serves (DNS-rebinding defence).',
      405: 'GET and DELETE: the endpoint keeps no sessions and offers no standalone stream.',
    },
  }),
] as const;
