import {
  CapabilitySlugParams,
  DescribeCapabilityResponse,
  ListCapabilitiesQuery,
  ListCapabilitiesResponse,
} from '@svc/contracts';
import { defineTool } from '../tool-kit';
import { plural, READ_ONLY, SlugArg } from './args';

/** `svc_capabilities_search` = GET /api/capabilities (spec §4.1), through the same catalog cache. */
export const searchTool = defineTool({
  name: 'svc_capabilities_search',
  title: 'Search capabilities',
  description:
    'Step 1 of search → describe → quote → run → status. Finds capabilities by natural-language ' +
    'text (`q`) and/or `category`, best match first. Each summary shows pricing and ' +
    '`execution.machine_run_status`; call svc_capability_describe before building any input.',
  scope: 'capabilities:read',
  input: ListCapabilitiesQuery,
  output: ListCapabilitiesResponse,
  annotations: READ_ONLY,
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
  name: 'svc_capability_describe',
  title: 'Describe a capability',
  description:
    'Step 2: the source of truth for a capability: `input_schema` (the JSON Schema of `input` for ' +
    'quote and run), pricing, file requirements and `capability.execution.machine_run_status`. ' +
    'Only `supported`, `requires_worker` and `plan_only` (and legacy `runnable`) can be quoted and run; ' +
    '`describe_only`, a missing or an unknown value is refused: do not quote or run those.',
  scope: 'capabilities:read',
  input: CapabilitySlugParams.extend({ slug: SlugArg }),
  output: DescribeCapabilityResponse,
  annotations: READ_ONLY,
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
