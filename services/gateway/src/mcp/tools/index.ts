import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpTool } from '../tool-kit';
import { balanceTool } from './account';
import { describeTool, searchTool } from './discovery';
import { quoteTool } from './quote';
import { runTool } from './run';
import { artifactsTool, cancelTool, statusTool } from './runs';
import { uploadSessionTool } from './uploads';

/**
 * The nine tools of spec §4 rule 6, in the order an agent uses them. tools/list shows all of them
 * whatever the key's scopes (decisions M2): a call without the scope is an error result.
 */
export const MCP_TOOLS: readonly McpTool[] = [
  searchTool,
  describeTool,
  balanceTool,
  quoteTool,
  runTool,
  statusTool,
  cancelTool,
  artifactsTool,
  uploadSessionTool,
];

/** The tools/list answer, the same for every request (made once, at start-up). */
export const MCP_TOOL_LIST: readonly Tool[] = MCP_TOOLS.map((tool) => tool.definition);

const BY_NAME = new Map(MCP_TOOLS.map((tool) => [tool.definition.name, tool]));

/** The tool of a tools/call name; undefined for a name not listed. */
export function findTool(name: string): McpTool | undefined {
  return BY_NAME.get(name);
}
