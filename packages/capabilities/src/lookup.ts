import type { Capability, PricedFile } from './capability-types';
import { CAPABILITIES } from './catalog';

const BY_SLUG: ReadonlyMap<string, Capability> = new Map(
  CAPABILITIES.map((capability): [string, Capability] => [capability.slug, capability]),
);

/**
 * The declaration of `slug`, or undefined when this build has none (the capability cannot run here).
 * What is published about it (status, pricing, runtime) is the registry's record: the describe
 * response is the source of truth (spec §1.2).
 */
export function capabilityDefinition(slug: string): Capability | undefined {
  return BY_SLUG.get(slug);
}

/** Priced units of a raw input and its resolved files (0 when the capability measures none). */
export function unitsOf(capability: Capability, input: unknown, files: readonly PricedFile[] = []): number {
  return capability.units === undefined ? 0 : capability.units(input, files);
}

/** The upload ids a raw input names, in input order (none for capabilities without files). */
export function filesOf(capability: Capability, input: unknown): string[] {
  return capability.uploadIds === undefined ? [] : capability.uploadIds(input);
}
