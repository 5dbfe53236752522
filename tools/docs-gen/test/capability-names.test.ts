import { readdirSync } from 'node:fs';
import path from 'node:path';
import { CAPABILITIES } from '@svc/capabilities';
import { findWorkspaceRoot } from '@svc/devstack';
import { capabilityNamesInComments, commentsOf } from '../src/comment-names';

/**
 * Platform comments do not list capabilities by name (issue 24): the platform runs what the catalog
 * declares. `crt` is left out: the spec gives it its own route and result (`POST
 * /api/capabilities/crt/run`, CrtResult), so the code that serves that route names it rightly. Test
 * code and test support (@svc/testkit) may name what they exercise.
 */
const root = findWorkspaceRoot(__dirname);
const PLATFORM_DIRS = [
  ...readdirSync(path.join(root, 'services')).map((name) => `services/${name}/src`),
  ...readdirSync(path.join(root, 'packages'))
    .filter((name) => name !== 'capabilities' && name !== 'testkit')
    .map((name) => `packages/${name}/src`),
];

test('no platform comment names a capability', () => {
  const slugs = CAPABILITIES.map((capability) => capability.slug).filter((slug) => slug !== 'crt');
  const dirs = PLATFORM_DIRS.filter((dir) => {
    try {
      readdirSync(path.join(root, dir));
      return true;
    } catch {
      return false;
    }
  });
  expect(capabilityNamesInComments(root, dirs, slugs)).toEqual([]);
});

test('only comments are read', () => {
  const text = "// a pii-redact job\nconst slug = 'pii-redact'; /* and\n html-to-pdf */ const x = 1;";
  expect(commentsOf(text, false).map((comment) => comment.line)).toEqual([1, 2]);
});
