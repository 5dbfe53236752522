import type {
  BalanceResponse,
  CapabilitySummary,
  DescribeCapabilityResponse,
  ListCapabilitiesQuery,
  ListCapabilitiesResponse,
} from '@svc/contracts';

/** A contract-valid capability for unit tests (the integration tests use the registry's real seed). */
export const crtSummary: CapabilitySummary = {
  slug: 'crt',
  name: 'Certificate transparency lookup',
  description: 'Hostnames seen in certificate-transparency logs for one registrable domain.',
  category: 'security',
  tags: ['dns', 'certificates'],
  pricing: { model: 'free', currency: 'USD', description: 'Free.' },
  execution: {
    machine_run_status: 'supported',
    effective_status: 'supported',
    runtime: 'node',
    mode: 'sync',
  },
};

export const crtDescription: DescribeCapabilityResponse = {
  ok: true,
  capability: {
    slug: crtSummary.slug,
    name: crtSummary.name,
    description: crtSummary.description,
    category: crtSummary.category,
    tags: crtSummary.tags,
    version: '1.0.0',
    pricing: crtSummary.pricing,
    file_requirements: {
      accepts_files: false,
      min_files: 0,
      max_files: 0,
      max_size_bytes: null,
      content_types: [],
    },
    execution: crtSummary.execution,
    updated_at: '2026-08-01T00:00:00.000Z',
  },
  input_schema: { type: 'object', required: ['apex'], properties: { apex: { type: 'string' } } },
};

export function searchAnswer(query: ListCapabilitiesQuery): ListCapabilitiesResponse {
  const hit = query.q === undefined || /cert|crt|transparen/.test(query.q);
  const inCategory = query.category === undefined || query.category === crtSummary.category;
  const capabilities = hit && inCategory ? [{ ...crtSummary, ...(query.q ? { relevance: 0.9 } : {}) }] : [];
  return {
    ok: true,
    capabilities: capabilities.slice(0, query.limit),
    count: Math.min(capabilities.length, query.limit),
    query: { q: query.q ?? null, category: query.category ?? null, limit: query.limit },
  };
}

export function balanceAnswer(clientId: string): BalanceResponse {
  return {
    ok: true,
    client_id: clientId,
    currency: 'USD',
    balance_usd: '12.5',
    held_usd: '0',
    spent_usd: '0',
    spend_cap_usd: null,
    remaining_usd: '12.5',
    period: { start: '2026-08-01T00:00:00.000Z', end: '2026-09-01T00:00:00.000Z' },
  };
}
