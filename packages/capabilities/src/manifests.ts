import type { CapabilityManifest } from '@svc/contracts';
import type { Capability } from './capability-types';
import { CAPABILITIES } from './catalog';

/**
 * The manifest the registry publishes for a capability (seeded into PostgreSQL on start,
 * services/registry/src/domain/seed.ts): its declaration's published fields, in the manifest's
 * key order (the registry hashes the row: the same declaration gives the same hash).
 */
export function manifestOf(capability: Capability): CapabilityManifest {
  return {
    slug: capability.slug,
    name: capability.name,
    description: capability.description,
    category: capability.category,
    tags: [...capability.tags],
    version: capability.version,
    pricing: capability.pricing,
    file_requirements: capability.fileRequirements,
    execution: {
      machine_run_status: capability.execution.machine_run_status,
      runtime: capability.execution.runtime,
      mode: capability.execution.mode,
    },
    input: capability.input,
  };
}

/** Every capability's manifest, in catalog order. */
export const MANIFESTS: readonly CapabilityManifest[] = CAPABILITIES.map(manifestOf);
