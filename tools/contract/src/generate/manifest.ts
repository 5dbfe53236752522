import { API_VERSION, CONTRACT_DEPRECATIONS, type ContractDeprecation } from '@svc/contracts';
import { contractFileText } from '../canonical-json';
import { type ContractManifest, MANIFEST_FORMAT, type ManifestElement } from '../manifest-types';
import { MANIFEST_PATH, REPO_ROOT } from '../paths';
import { errorStatusElements, limitElements, scopeElements } from './catalog';
import { mcpToolElements } from './mcp';
import { restEndpointElements } from './rest';
import { executionModeElements, lifecycleElements, runStateElements } from './states';

export interface ManifestSources {
  /** Element id → deprecation (default: the contracts' CONTRACT_DEPRECATIONS). */
  deprecations?: Readonly<Record<string, ContractDeprecation>>;
}

function byId(a: ManifestElement, b: ManifestElement): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The contract manifest (spec §9.2) from the contracts. Fails loudly on a duplicate id, a
 * lifecycle step or deprecation replacement that names no element, or a deprecation of an element
 * that does not exist: each would publish a manifest that contradicts itself.
 */
export function buildManifest({
  deprecations = CONTRACT_DEPRECATIONS,
}: ManifestSources = {}): ContractManifest {
  const elements: ManifestElement[] = [
    ...restEndpointElements(),
    ...mcpToolElements(),
    ...executionModeElements(),
    ...runStateElements(),
    ...lifecycleElements(),
    ...errorStatusElements(),
    ...scopeElements(),
    ...limitElements(),
  ].sort(byId);
  const ids = new Set<string>();
  for (const element of elements) {
    if (ids.has(element.id)) throw new Error(`duplicate contract element id ${element.id}`);
    ids.add(element.id);
  }
  for (const element of elements) {
    if (element.kind !== 'lifecycle') continue;
    for (const step of element.steps) {
      if (!ids.has(step)) throw new Error(`${element.id}: step ${step} is not an element of the manifest`);
    }
  }
  for (const [id, deprecation] of Object.entries(deprecations)) {
    if (!ids.has(id)) throw new Error(`deprecation of ${id}: no such element in the manifest`);
    if (deprecation.replacement !== undefined && !ids.has(deprecation.replacement)) {
      throw new Error(`deprecation of ${id}: replacement ${deprecation.replacement} is not an element`);
    }
  }
  return {
    format: MANIFEST_FORMAT,
    version: API_VERSION,
    elements: elements.map((element) => {
      const deprecation = deprecations[element.id];
      return deprecation === undefined ? element : { ...element, deprecated: { ...deprecation } };
    }),
  };
}

/** The bytes of contract/manifest.json. */
export function manifestText(manifest: ContractManifest = buildManifest()): string {
  return contractFileText(manifest, MANIFEST_PATH, REPO_ROOT);
}
