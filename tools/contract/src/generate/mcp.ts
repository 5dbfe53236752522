import { MCP_TOOL_DESCRIPTORS, type McpToolDescriptor, toJsonSchema } from '@svc/contracts';
import type { McpToolElement } from '../manifest-types';

/**
 * MCP tools from the contracts' descriptors (packages/contracts/src/mcp-tools.ts), which the
 * gateway's tools/list is built from: schemas in the dialect tools/list shows (draft-07, input side
 * for arguments, output side for the result).
 */
export function mcpToolId(name: string): string {
  return `mcp:${name}`;
}

export function mcpToolElement(tool: McpToolDescriptor): McpToolElement {
  return {
    id: mcpToolId(tool.name),
    kind: 'mcp_tool',
    name: tool.name,
    title: tool.title,
    description: tool.description,
    scope: tool.scope,
    input_schema: toJsonSchema(tool.input, { io: 'input', target: 'draft-7' }),
    output_schema: toJsonSchema(tool.output, { io: 'output', target: 'draft-7' }),
    annotations: { ...tool.annotations },
  };
}

export function mcpToolElements(
  tools: readonly McpToolDescriptor[] = MCP_TOOL_DESCRIPTORS,
): McpToolElement[] {
  return tools.map(mcpToolElement);
}
