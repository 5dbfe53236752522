import type { CapabilityRecord } from '@svc/contracts';

/**
 * The registry's published capability records, as the domain reads them (a port: main.ts hands it
 * the cached `registry.describe` of createCapabilityDirectory).
 */
export interface CapabilityDirectory {
  /** The published record of `slug`; rejects with NotFoundError (404) unknown, 503 registry down. */
  describe(slug: string): Promise<CapabilityRecord>;
}
