import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as capabilities from '@svc/capabilities';
import { findWorkspaceRoot, SERVICE_NAMES } from '@svc/devstack';
import { type KnownNames, namedSchemas, proseOf, unknownNames } from '../src/doc-names';
import { readPrismaDatabase } from '../src/prisma-schema';

/**
 * The prose of the docs (what `pnpm docs:generate` does not write) may name a schema, a table, an
 * RPC queue or method, a job queue or an event only if the code has it: a renamed queue or a moved
 * table fails here instead of leaving a sentence that is no longer true. The lists of services,
 * schemas, tables and transports themselves are generated (generated-docs.test.ts).
 */

const root = findWorkspaceRoot(__dirname);
// README.md is not read: its examples and prose name JavaScript properties (`run.result`) that look
// like platform names; its services table is generated all the same.
const DOCS = ['docs/architecture.md', 'docs/db.md'] as const;

function knownNames(): KnownNames {
  const database = readPrismaDatabase(root);
  const tables = new Map(
    database.schemas.map((schema) => [
      schema,
      new Set(database.models.filter((model) => model.schema === schema).map((model) => model.table)),
    ]),
  );
  const { rpc, jobs, events } = capabilities.messageCatalog;
  return {
    tables,
    rpc: new Map(Object.entries(rpc).map(([service, methods]) => [service, new Set(Object.keys(methods))])),
    jobs: new Set(Object.keys(jobs)),
    events: new Set(Object.keys(events)),
  };
}

const known = knownNames();

describe.each(DOCS)('%s', (file) => {
  const prose = proseOf(readFileSync(path.join(root, file), 'utf8'));

  test('names only schemas, tables, RPC queues and methods, job queues and events the code has', () => {
    expect(unknownNames(prose, known)).toEqual([]);
  });

  test('names only PostgreSQL schemas schema.prisma declares', () => {
    expect(namedSchemas(prose).filter(({ name }) => !known.tables.has(name))).toEqual([]);
  });

  // The transports table (generated, held to a real bus by transports.int.test.ts) says RPC is a
  // Redis list with pub/sub replies; prose that puts RPC on BullMQ contradicts it (issue 24).
  test('does not say RPC runs over BullMQ', () => {
    const lines = prose.split('\n').filter((line) => /\bRPC\b[^.;\n]{0,20}\bBullMQ\b/.test(line));
    expect(lines).toEqual([]);
  });
});

test('architecture.md says what every service of the list talks to, and no other', () => {
  const prose = proseOf(readFileSync(path.join(root, 'docs/architecture.md'), 'utf8'));
  const start = prose.indexOf('What each one talks to');
  const block = prose.slice(start, prose.indexOf('\n\n', prose.indexOf('\n- ', start)));
  const described = [...block.matchAll(/^- ([a-z-]+):/gm)].map((match) => match[1]);
  expect(start).toBeGreaterThan(0);
  expect(described).toEqual([...SERVICE_NAMES]);
});

describe('the checker', () => {
  const sample: KnownNames = {
    tables: new Map([['orchestrator', new Set(['runs'])]]),
    rpc: new Map([['wallet', new Set(['settle'])]]),
    jobs: new Set(['capability.crt', 'uploads.cleanup']),
    events: new Set(['run.finished']),
  };

  test('passes names the code has, placeholders, file names and calls', () => {
    const text = [
      '`orchestrator.runs` and `orchestrator.runs.files`, `wallet.settle`, `rpc.wallet`, `rpc.<service>`',
      'jobs.capability.<slug>, `jobs.capability.*`, `jobs.uploads.cleanup`, `uploads.cleanup`, run.finished.',
      'wallet.ts, registry.fn(x), `<prefix>:rpc.x`, services/wallet.settle, e.g. so',
    ].join('\n');
    expect(unknownNames(text, sample)).toEqual([]);
  });

  test('finds names that drifted', () => {
    const text = '`orchestrator.run`, wallet.capture, rpc.gateway\njobs.capability-crt and run.done';
    expect(unknownNames(text, sample)).toEqual([
      { line: 1, name: 'orchestrator.run' },
      { line: 1, name: 'wallet.capture' },
      { line: 1, name: 'rpc.gateway' },
      { line: 2, name: 'jobs.capability-crt' },
      { line: 2, name: 'run.done' },
    ]);
  });
});

test("README's architecture diagram draws every service of the list", () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('```mermaid');
  const diagram = readme.slice(start, readme.indexOf('```', start + 3));
  // A node is `name[…]`; the worker is drawn as its pool, `workers[[…]]`.
  const drawn = SERVICE_NAMES.filter(
    (name) => diagram.includes(`${name}[`) || diagram.includes(`${name}s[[`),
  );
  expect(drawn).toEqual([...SERVICE_NAMES]);
});
