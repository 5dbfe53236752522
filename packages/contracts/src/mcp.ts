import { z } from 'zod';

/** The nine MCP tools of spec §4 rule 6, in the order an agent uses them. */
export const MCP_TOOL_NAMES = [
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
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

/**
 * The JSON-RPC 2.0 envelope POSTed to `/mcp` (spec §4.21), for the OpenAPI document only: the MCP
 * SDK's transport parses and answers the messages themselves (`initialize`, `tools/list`,
 * `tools/call`, …), and the MCP specification, not this one, owns their shapes.
 */
export const McpJsonRpcMessage = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number()]).optional(),
    method: z.string().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.looseObject({ code: z.number(), message: z.string() }).optional(),
  })
  .describe('A JSON-RPC 2.0 message (request, notification or response) of the MCP protocol.');
export type McpJsonRpcMessage = z.infer<typeof McpJsonRpcMessage>;
