import { McpDescribeTool, McpSearchTool } from '@svc/contracts';
import { defineTool } from '../tool-kit';
import { plural } from './args';

/** `svc_capabilities_search` = GET /api/capabilities (spec §4.1), through the same catalog cache. */
export const searchTool = defineTool({
  ...McpSearchTool,
  sharedBody: true, // the catalog cache's answer (CatalogCache)
  call: async (args, context) => {
    const body = await context.services.catalog.search(args);
    const slugs = body.capabilities.map((c) => c.slug).join(', ');
    return {
      summary: `${plural(body.count, 'capability', 'capabilities')} found${slugs ? `: ${slugs}` : ''}`,
      body,
    };
  },
});

/** `svc_capability_describe` = GET /api/capabilities/{slug} (spec §4.2). */
export const describeTool = defineTool({
  ...McpDescribeTool,
  sharedBody: true, // the catalog cache's answer (CatalogCache)
  call: async ({ slug }, context) => {
    const body = await context.services.catalog.describe(slug);
    const { execution, pricing } = body.capability;
    return {
      summary: `${slug}: machine_run_status ${execution.machine_run_status}, pricing ${pricing.model}`,
      body,
    };
  },
});
