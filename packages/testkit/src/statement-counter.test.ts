import { StatementCounter } from './statement-counter';

describe('StatementCounter', () => {
  it('counts statements, commits (COMMIT or autocommit) and the commits that wrote, per connection', () => {
    const counter = new StatementCounter();
    const send = (connection: number, sql: string) => counter.observe({ sql, connection });
    send(1, 'SELECT 1'); // autocommit, read
    send(1, 'INSERT INTO t (a) VALUES (1)'); // autocommit, write
    send(2, 'BEGIN');
    send(3, 'BEGIN');
    send(2, 'SELECT 1 FROM t WHERE a = 1 FOR UPDATE'); // not a write
    send(3, 'SELECT 2');
    send(2, 'WITH moved AS (UPDATE t SET a = 2 RETURNING a) SELECT a FROM moved'); // a write in a CTE
    send(3, 'COMMIT'); // read-only transaction
    send(2, 'COMMIT');
    send(1, 'BEGIN');
    send(1, 'DELETE FROM t');
    send(1, 'ROLLBACK'); // not a commit
    send(1, 'SELECT a FROM t FOR NO KEY UPDATE SKIP LOCKED'); // autocommit, read
    const count = counter.take();
    expect({ ...count, sql: count.sql.length }).toEqual({
      statements: 13,
      commits: 5,
      writeCommits: 2,
      sql: 13,
    });
    expect(counter.take()).toEqual({ statements: 0, commits: 0, writeCommits: 0, sql: [] });
  });
});
