import {
  type CapabilityRecord,
  effectiveRunStatus,
  type FileRequirements,
  NO_FILES,
  type Pricing,
} from '@svc/contracts';

/** The free pricing model, as a published record carries it. */
export const FREE_PRICING: Pricing = { model: 'free', currency: 'USD', description: 'Free.' };

export interface CapabilityRecordOptions {
  pricing?: Pricing;
  runtime?: string;
  files?: FileRequirements;
}

/**
 * A capability record as `registry.describe` publishes it, for tests of the services that read it
 * (the registry's manifests are another service's code): `effective_status` derived from the raw
 * `machine_run_status` by the spec §2.1 rules; free, runtime node and no files unless told.
 */
export function capabilityRecord(
  slug: string,
  machineRunStatus: string,
  options: CapabilityRecordOptions = {},
): CapabilityRecord {
  return {
    slug,
    name: `${slug} capability`,
    description: `The ${slug} capability (test fixture).`,
    category: 'data',
    tags: [],
    version: '1.0.0',
    pricing: options.pricing ?? FREE_PRICING,
    file_requirements: options.files ?? NO_FILES,
    execution: {
      machine_run_status: machineRunStatus,
      effective_status: effectiveRunStatus(machineRunStatus),
      runtime: options.runtime ?? 'node',
      mode: 'async',
    },
    updated_at: '2026-11-21T12:00:00.000Z',
  };
}
