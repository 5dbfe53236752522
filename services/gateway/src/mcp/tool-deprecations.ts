import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { type ContractDeprecations, deprecationNotice } from '@svc/contracts';

/**
 * The tools/list entries with their deprecations (decisions CD5): a deprecated tool's description
 * starts with "Deprecated since …; sunset …; use … instead. See <link>" (what an agent reads) and
 * its `_meta.deprecated` holds the entry itself (what a program reads). Tools not deprecated are
 * returned as they are; made once at start-up, like the list.
 */
export function listedTools(tools: readonly Tool[], deprecations: ContractDeprecations): readonly Tool[] {
  return tools.map((tool) => {
    const deprecation = deprecations[`mcp:${tool.name}`];
    if (deprecation === undefined) return tool;
    const notice = deprecationNotice(deprecation);
    return {
      ...tool,
      description: tool.description ? `${notice}\n\n${tool.description}` : notice,
      _meta: { ...tool._meta, deprecated: { ...deprecation } },
    };
  });
}
