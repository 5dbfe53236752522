import {
  CapabilitySlugParams,
  DescribeCapabilityResponse,
  ListCapabilitiesQuery,
  ListCapabilitiesResponse,
} from '../capability-api';
import { defineOperation } from './operation-types';

/** Spec §4.1 and §4.2: discovery. Both carry no security requirement (spec §4 preamble). */
export const capabilityOperations = [
  defineOperation({
    method: 'get',
    path: '/api/capabilities',
    operationId: 'listCapabilities',
    summary: 'Search the capability registry',
    description:
      'Finds capabilities by natural-language query `q` and/or `category`. With `q`, results are ranked ' +
      'best first and carry `relevance`. Unknown query parameters are rejected with 422.',
    tags: ['capabilities'],
    auth: { kind: 'public' },
    params: { query: ListCapabilitiesQuery },
    success: { status: 200, description: 'Matching capabilities.', schema: ListCapabilitiesResponse },
    errors: [422, 500, 503],
  }),
  defineOperation({
    method: 'get',
    path: '/api/capabilities/{slug}',
    operationId: 'describeCapability',
    summary: 'Describe one capability',
    description:
      'Returns the capability record (pricing, file requirements, execution) and the JSON Schema of its ' +
      'input. Clients apply the spec §2.1 rules to `execution.machine_run_status` before quoting or running.',
    tags: ['capabilities'],
    auth: { kind: 'public' },
    params: { path: CapabilitySlugParams },
    success: {
      status: 200,
      description: 'The capability and its input schema.',
      schema: DescribeCapabilityResponse,
    },
    errors: [404, 500, 503],
  }),
] as const;
