import type { FillReport } from '@svc/contracts';

/** What a fill may use: the request's list, the client's field names and the allowed fields' values. */
export interface FillScope {
  /** Plaintexts of the allowed fields (the caller decrypts only those). */
  values: ReadonlyMap<string, string>;
  /** The request's `fields` list: the only names ever placed. */
  allowed: ReadonlySet<string>;
  /** Every field name the client has (names only). */
  known: ReadonlySet<string>;
}

/**
 * Collects the report of one fill: each name the template asks for appears once, in the list of
 * its outcome, in the order the template first asks for it.
 */
export class FillReportBuilder {
  private readonly seen = new Map<string, string | undefined>();
  private readonly report: FillReport = { filled: [], unknown: [], not_allowed: [], empty: [] };

  constructor(private readonly scope: FillScope) {}

  /**
   * The value to place for `name`, or undefined when it stays empty. Only an allowed name with a
   * non-empty value is placed — even if `values` holds a name the list did not allow (defence in
   * depth: a caller's mistake must not put a disallowed field in a document).
   */
  resolve(name: string): string | undefined {
    if (this.seen.has(name)) return this.seen.get(name);
    const { values, allowed, known } = this.scope;
    const value = allowed.has(name) ? values.get(name) : undefined;
    const placed = value === undefined || value === '' ? undefined : value;
    if (placed !== undefined) this.report.filled.push(name);
    else if (!known.has(name)) this.report.unknown.push(name);
    else if (!allowed.has(name)) this.report.not_allowed.push(name);
    else this.report.empty.push(name);
    this.seen.set(name, placed);
    return placed;
  }

  result(): FillReport {
    return {
      filled: [...this.report.filled],
      unknown: [...this.report.unknown],
      not_allowed: [...this.report.not_allowed],
      empty: [...this.report.empty],
    };
  }
}
