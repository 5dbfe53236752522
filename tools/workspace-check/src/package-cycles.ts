import { graphSequencer } from '@pnpm/deps.graph-sequencer';
import { DEPENDENCY_FIELDS, type DependencyField, type WorkspacePackage } from './workspace-packages';

/** One package depending on another of the workspace, with the manifest fields that declare it. */
export interface PackageEdge {
  from: string;
  to: string;
  fields: DependencyField[];
}

/** `"alias": "workspace:@scope/name@*"` links @scope/name under another name; any other spec names the key itself. */
const WORKSPACE_ALIAS = /^workspace:((?:@[^/@]+\/)?[^@]+)@/;

function dependencyTarget(name: string, spec: string): string {
  return WORKSPACE_ALIAS.exec(spec)?.[1] ?? name;
}

/**
 * The edges between workspace packages, from every dependency field (devDependencies too: pnpm orders
 * and warns on them alike). A dependency on a package outside the workspace is no edge, nor is a
 * package's dependency on itself (pnpm drops those from its graph as well).
 */
export function workspaceEdges(packages: readonly WorkspacePackage[]): PackageEdge[] {
  const names = new Set(packages.map((pkg) => pkg.name));
  const edges = new Map<string, PackageEdge>();
  for (const pkg of packages) {
    for (const field of DEPENDENCY_FIELDS) {
      for (const [name, spec] of Object.entries(pkg.manifest[field] ?? {})) {
        const to = dependencyTarget(name, spec);
        if (to === pkg.name || !names.has(to)) continue;
        const key = `${pkg.name}\n${to}`;
        const edge = edges.get(key) ?? { from: pkg.name, to, fields: [] };
        edge.fields.push(field);
        edges.set(key, edge);
      }
    }
  }
  return [...edges.values()];
}

/**
 * The cycles among workspace packages, each as its edges in order (the last one leads back to the
 * first package). Found by pnpm's own sequencer (@pnpm/deps.graph-sequencer, which `pnpm install`
 * uses for its "cyclic workspace dependencies" warning), so this check and that warning agree.
 */
export function findPackageCycles(packages: readonly WorkspacePackage[]): PackageEdge[][] {
  const edges = workspaceEdges(packages);
  const graph = new Map<string, string[]>(packages.map((pkg) => [pkg.name, []]));
  const byPair = new Map<string, PackageEdge>();
  for (const edge of edges) {
    graph.get(edge.from)?.push(edge.to);
    byPair.set(`${edge.from}\n${edge.to}`, edge);
  }
  return graphSequencer(graph).cycles.map((cycle) =>
    cycle.map((from, index) => {
      const to = cycle[(index + 1) % cycle.length]!;
      const edge = byPair.get(`${from}\n${to}`);
      if (edge === undefined) throw new Error(`graph sequencer reported ${from} → ${to}, which is no edge`);
      return edge;
    }),
  );
}

/** `a → b (devDependencies), b → c (dependencies), c → a (dependencies)`: a cycle on one line, edge by edge. */
export function describeCycle(cycle: readonly PackageEdge[]): string {
  return cycle.map((edge) => `${edge.from} → ${edge.to} (${edge.fields.join(', ')})`).join(', ');
}
