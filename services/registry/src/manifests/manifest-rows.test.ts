import { manifestInputJsonSchema } from '@svc/contracts';
import { manifestToRow } from '../domain/records';
import { crtManifest, MANIFESTS } from './index';

/**
 * The registry's side of the manifests derived from the capability declarations (their own
 * assertions: packages/capabilities/src/manifests.test.ts): each becomes a row it can seed.
 */
describe('manifests in code, as the registry stores them', () => {
  test.each(MANIFESTS.map((candidate) => [candidate.slug, candidate] as const))(
    '%s becomes a row',
    (_slug, candidate) => {
      expect(() => manifestToRow(candidate)).not.toThrow();
    },
  );

  test('the stored input schema of crt is the published one', () => {
    expect(manifestToRow(crtManifest).inputSchema).toEqual(manifestInputJsonSchema(crtManifest));
  });
});
