import { describeCycle, findPackageCycles, workspaceEdges } from '../src/package-cycles';
import type { PackageManifest, WorkspacePackage } from '../src/workspace-packages';

function pkg(name: string, manifest: Omit<PackageManifest, 'name'> = {}): WorkspacePackage {
  return { name, dir: `/ws/${name}`, manifest: { name, ...manifest } };
}

describe('findPackageCycles', () => {
  it('finds a cycle closed by a devDependency, edge by edge with the field that declares it', () => {
    // The shape of issue 23 item 11: storage's tests use testkit, testkit uses capabilities, capabilities uses storage.
    const cycles = findPackageCycles([
      pkg('storage', { devDependencies: { testkit: 'workspace:*' } }),
      pkg('testkit', { dependencies: { capabilities: 'workspace:*' } }),
      pkg('capabilities', { dependencies: { storage: 'workspace:*' } }),
      pkg('gateway', { dependencies: { storage: 'workspace:*', capabilities: 'workspace:*' } }),
    ]);
    expect(cycles).toHaveLength(1);
    const cycle = cycles[0]!;
    expect(cycle.map((edge) => edge.from).sort()).toEqual(['capabilities', 'storage', 'testkit']);
    for (const [index, edge] of cycle.entries()) {
      expect(edge.to).toBe(cycle[(index + 1) % cycle.length]!.from);
    }
    expect(cycle.find((edge) => edge.from === 'storage')).toEqual({
      from: 'storage',
      to: 'testkit',
      fields: ['devDependencies'],
    });
    expect(describeCycle(cycle)).toContain('storage → testkit (devDependencies)');
  });

  it('counts optional and peer dependencies as pnpm does', () => {
    expect(
      findPackageCycles([
        pkg('a', { peerDependencies: { b: 'workspace:^' } }),
        pkg('b', { optionalDependencies: { a: 'workspace:*' } }),
      ]),
    ).toHaveLength(1);
  });

  it('follows a workspace alias to the package it names', () => {
    const cycles = findPackageCycles([
      pkg('@svc/a', { dependencies: { 'old-b': 'workspace:@svc/b@*' } }),
      pkg('@svc/b', { devDependencies: { '@svc/a': 'workspace:*' } }),
    ]);
    expect(cycles.map(describeCycle)).toHaveLength(1);
  });

  it('reports each separate cycle', () => {
    const cycles = findPackageCycles([
      pkg('a', { dependencies: { b: 'workspace:*' } }),
      pkg('b', { devDependencies: { a: 'workspace:*' } }),
      pkg('c', { dependencies: { d: 'workspace:*' } }),
      pkg('d', { dependencies: { c: 'workspace:*' } }),
    ]);
    expect(cycles.map((cycle) => cycle.map((edge) => edge.from).sort())).toEqual(
      expect.arrayContaining([
        ['a', 'b'],
        ['c', 'd'],
      ]),
    );
  });

  it('finds none in a graph without cycles, a self-dependency and outside packages aside', () => {
    const packages = [
      pkg('app', {
        dependencies: { lib: 'workspace:*', zod: '4.0.0' },
        devDependencies: { kit: 'workspace:*' },
      }),
      pkg('kit', { dependencies: { lib: 'workspace:*' } }),
      pkg('lib', { devDependencies: { lib: 'workspace:*', jest: '30.0.0' } }),
    ];
    expect(findPackageCycles(packages)).toEqual([]);
    expect(workspaceEdges(packages)).toEqual([
      { from: 'app', to: 'lib', fields: ['dependencies'] },
      { from: 'app', to: 'kit', fields: ['devDependencies'] },
      { from: 'kit', to: 'lib', fields: ['dependencies'] },
    ]);
  });
});
