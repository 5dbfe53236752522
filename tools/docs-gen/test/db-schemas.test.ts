import { findWorkspaceRoot, platformService, SERVICE_NAMES, schemaOwner } from '@svc/devstack';
import { parsePrismaSchema, readPrismaDatabase } from '../src/prisma-schema';

/**
 * schema.prisma's PostgreSQL schemas and the one service list: each schema is owned by exactly one
 * listed service (the one that reads and writes its tables; the others ask it over the bus), and
 * each owner holds database connections. docs/db.md and architecture.md's tables show this pairing.
 */
describe('the PostgreSQL schemas and the services that own them', () => {
  const database = readPrismaDatabase(findWorkspaceRoot(__dirname));

  test.each(database.schemas)('schema %s has exactly one owner in the service list', (schema) => {
    const owners = SERVICE_NAMES.filter((name) => platformService(name).ownsSchema === schema);
    expect({ schema, owners }).toEqual({ schema, owners: [schemaOwner(schema)] });
    expect(owners).toHaveLength(1);
  });

  test.each(SERVICE_NAMES)(
    '%s owns a declared schema or none, and holds connections if it owns one',
    (name) => {
      const { ownsSchema, database: connects } = platformService(name);
      if (ownsSchema === undefined) return;
      expect(database.schemas).toContain(ownsSchema);
      expect(connects).toBe(true);
    },
  );

  test('every model lives in a declared schema', () => {
    const stray = database.models.filter((model) => !database.schemas.includes(model.schema));
    expect(stray.map((model) => `${model.name}: ${model.schema}`)).toEqual([]);
  });

  test('the schema is read by Prisma: models, tables, schemas, keys and comments', () => {
    const parsed = parsePrismaSchema(`
      datasource db {
        provider = "postgresql"
        schemas  = ["b", "a"]
      }
      /// A thing.
      model Thing {
        id    String  @id @db.Uuid
        name  String? @map("the_name")
        @@index([name])
        @@map("things")
        @@schema("a")
      }
    `);
    expect(parsed.schemas.sort()).toEqual(['a', 'b']);
    expect(parsed.models).toEqual([
      expect.objectContaining({ name: 'Thing', schema: 'a', table: 'things', documentation: 'A thing.' }),
    ]);
    expect(
      parsed.models[0]?.fields.map((field) => [field.name, field.dbName ?? null, field.isRequired]),
    ).toEqual([
      ['id', null, true],
      ['name', 'the_name', false],
    ]);
    expect(parsed.models[0]?.indexes.map((index) => index.type).sort()).toEqual(['id', 'normal']);
  });
});
