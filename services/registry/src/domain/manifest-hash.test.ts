import { z } from 'zod';
import { crtManifest } from '../manifests';
import { canonicalJson, sha256Hex } from './manifest-hash';
import { manifestToRow } from './records';

describe('canonicalJson', () => {
  test('sorts keys at every depth, keeps array order, drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1], c: null, e: undefined } })).toBe(
      '{"a":{"c":null,"d":[3,1]},"b":1}',
    );
  });

  test('key order does not change the hash; any value does', () => {
    expect(sha256Hex({ a: 1, b: [1, 2] })).toBe(sha256Hex({ b: [1, 2], a: 1 }));
    expect(sha256Hex({ a: 1, b: [1, 2] })).not.toBe(sha256Hex({ a: 1, b: [2, 1] }));
    expect(sha256Hex({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('manifestToRow', () => {
  test('the hash is stable and covers the input schema', () => {
    const row = manifestToRow(crtManifest);
    expect(manifestToRow({ ...crtManifest }).manifestHash).toBe(row.manifestHash);
    const wider = manifestToRow({ ...crtManifest, input: z.object({ apex: z.string() }).strict() });
    expect(wider.manifestHash).not.toBe(row.manifestHash);
    const retagged = manifestToRow({ ...crtManifest, tags: [...crtManifest.tags].reverse() });
    expect(retagged.manifestHash).not.toBe(row.manifestHash);
  });

  test('columns mirror the manifest; raw status and runtime get their own columns', () => {
    expect(manifestToRow(crtManifest)).toMatchObject({
      slug: 'crt',
      category: 'security',
      machineRunStatus: 'supported',
      runtime: 'node',
      execution: { machine_run_status: 'supported', runtime: 'node', mode: 'sync' },
      fileRequirements: { accepts_files: false },
    });
  });

  test('an invalid manifest (unknown key, non-object input) is rejected', () => {
    expect(() => manifestToRow({ ...crtManifest, slug: 'Bad Slug' })).toThrow();
    expect(() => manifestToRow({ ...crtManifest, input: z.string() })).toThrow(
      /input must be an object schema/,
    );
  });
});
