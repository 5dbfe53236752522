import { databaseName, maintenanceConfig, poolConfig, quoteIdentifier } from '../src/connection';
import { schemaEngineWasm } from '../src/migrate/wasm-engine';

describe('poolConfig', () => {
  it('parses a URL into discrete fields, so a later `database` override wins', () => {
    const config = poolConfig('postgresql://app:p%40ss@db.internal:6543/svc?application_name=x');
    expect(config).toMatchObject({
      host: 'db.internal',
      port: 6543,
      user: 'app',
      password: 'p@ss',
      database: 'svc',
    });
    expect(config).not.toHaveProperty('connectionString');
    expect(maintenanceConfig('postgres://u@h/svc').database).toBe('postgres');
  });

  it('rejects URLs that are not PostgreSQL ones', () => {
    expect(() => poolConfig('mysql://u@h/db')).toThrow(/postgres:\/\//);
    expect(() => poolConfig('127.0.0.1:5432')).toThrow(/postgres:\/\//);
  });

  it('names the database, defaulting like PostgreSQL to the user', () => {
    expect(databaseName('postgres://u@h:5432/svc_test')).toBe('svc_test');
    expect(databaseName('postgres://alice@h')).toBe('alice');
  });

  it('quotes identifiers', () => {
    expect(quoteIdentifier('a"b')).toBe('"a""b"');
  });
});

describe('schemaEngineWasm', () => {
  it('loads the WASM schema engine under jest (CommonJS) and reports its build', () => {
    const engine = schemaEngineWasm();
    expect(engine.version()).toMatch(/^[0-9a-f]{40}$/);
    expect(schemaEngineWasm()).toBe(engine); // one instance per process
  });
});
