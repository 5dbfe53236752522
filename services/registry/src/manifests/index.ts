import type { CapabilityManifest } from '@svc/contracts';
import { crtManifest } from './crt';

/**
 * Every capability the registry publishes, kept in code and seeded into PostgreSQL on start
 * (src/domain/seed.ts). Add a capability: one file in this folder, one line here.
 */
export const MANIFESTS: readonly CapabilityManifest[] = [crtManifest];

export { CATEGORIES, type Category, isCategory } from './categories';
export { crtManifest };
