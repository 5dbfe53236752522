import type { StatementListener } from '@svc/db';

/** What a counter saw: statements sent, transactions ended by COMMIT or autocommit, those that wrote. */
export interface StatementCount {
  /** Every statement sent, BEGIN and COMMIT included. */
  statements: number;
  /** Transactions committed: a COMMIT, or a statement sent outside BEGIN…COMMIT (autocommit). */
  commits: number;
  /** Of `commits`, those that wrote (INSERT, UPDATE, DELETE, MERGE; a CTE that does counts). */
  writeCommits: number;
  /** The statements, in order (for the message of a failed count). */
  sql: string[];
}

const BEGIN = /^\s*(BEGIN|START\s+TRANSACTION)\b/i;
const COMMIT = /^\s*(COMMIT|END)\b/i;
const ROLLBACK = /^\s*ROLLBACK\s*(;|$)/i;
// A write anywhere in the statement (a CTE's too), not `SELECT … FOR UPDATE` / `FOR NO KEY UPDATE`.
const WRITE =
  /\b(INSERT\s+INTO|DELETE\s+FROM|MERGE\s+INTO)\b|(?<!\b(FOR|KEY)\s+)\bUPDATE\s+(?!(SKIP|NOWAIT|OF)\b)/i;

/**
 * Counts the statements and commits one process sends, per connection (issue 25: "a regression in
 * statements or commits per operation fails CI"): hand `observe` to createPrismaClient's
 * `onStatement`, then read `take()` around one operation. A transaction is followed per connection,
 * so statements of concurrent transactions on other connections do not mix.
 */
export class StatementCounter {
  private count: StatementCount = { statements: 0, commits: 0, writeCommits: 0, sql: [] };
  /** connection → whether its open transaction has written; absent: no transaction open. */
  private readonly open = new Map<number, boolean>();

  readonly observe: StatementListener = ({ sql, connection }) => {
    this.count.statements += 1;
    this.count.sql.push(sql.replace(/\s+/g, ' ').trim());
    if (BEGIN.test(sql)) {
      this.open.set(connection, false);
      return;
    }
    const inTransaction = this.open.get(connection);
    if (inTransaction === undefined) {
      this.count.commits += 1;
      if (WRITE.test(sql)) this.count.writeCommits += 1;
    } else if (COMMIT.test(sql)) {
      this.open.delete(connection);
      this.count.commits += 1;
      if (inTransaction) this.count.writeCommits += 1;
    } else if (ROLLBACK.test(sql)) {
      this.open.delete(connection);
    } else if (WRITE.test(sql)) {
      this.open.set(connection, true);
    }
  };

  /** What was counted since the last take (or the start), and a fresh count from now. */
  take(): StatementCount {
    const taken = this.count;
    this.count = { statements: 0, commits: 0, writeCommits: 0, sql: [] };
    return taken;
  }
}
