import { MANIFESTS } from '@svc/capabilities';
import type { CapabilityManifest } from '@svc/contracts';

/**
 * Every capability the registry publishes, kept in code and seeded into PostgreSQL on start
 * (src/domain/seed.ts). Derived from the capability declarations (@svc/capabilities: one folder per
 * capability and one line in its catalog.ts, docs/adding-a-capability.md): nothing to add here.
 */
export { MANIFESTS };

function manifestOfSlug(slug: string): CapabilityManifest {
  const found = MANIFESTS.find((manifest) => manifest.slug === slug);
  if (found === undefined) throw new Error(`no capability "${slug}" in @svc/capabilities`);
  return found;
}

/** crt's manifest: the registry's own tests pin the manifest hash and seeding with it. */
export const crtManifest = manifestOfSlug('crt');
