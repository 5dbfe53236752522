import type { Change } from './diff';
import { isObject, type Json, UnknownInputError } from './manifest';

export const APPROVALS_FORMAT = 'svc-contract-approvals/1';

export interface Approval {
  readonly change_id: string;
  readonly reason: string;
  /** Last day (UTC, inclusive) the approval counts. */
  readonly expires: string;
}

export interface ApprovalOutcome {
  /** Approvals that matched a change and are in force. */
  readonly used: Approval[];
  /** Approvals past their expiry: they approve nothing, whether or not they match a change. */
  readonly expired: Approval[];
  /** Approvals in force that match no change (a warning: stale entries should be removed). */
  readonly unused: Approval[];
  /** Ids of the changes an approval in force covers. */
  readonly approved: ReadonlySet<string>;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const FIELDS = new Set(['change_id', 'reason', 'expires']);

/** Parses an approvals file strictly (an unknown format or field: exit 3, like a manifest). */
export function parseApprovals(text: string, source: string): Approval[] {
  let raw: Json;
  try {
    raw = JSON.parse(text) as Json;
  } catch (error) {
    throw new UnknownInputError(`${source}: not JSON (${(error as Error).message})`);
  }
  if (!isObject(raw) || raw.format !== APPROVALS_FORMAT) {
    const format = isObject(raw) ? JSON.stringify(raw.format ?? null) : 'none';
    throw new UnknownInputError(
      `${source}: unknown format ${format} (this checker reads ${APPROVALS_FORMAT})`,
    );
  }
  for (const key of Object.keys(raw)) {
    if (key !== 'format' && key !== 'approvals')
      throw new UnknownInputError(`${source}: unknown field "${key}"`);
  }
  if (!Array.isArray(raw.approvals)) throw new UnknownInputError(`${source}: "approvals" must be an array`);
  return raw.approvals.map((entry, index) => {
    const where = `${source}: approvals[${index}]`;
    if (!isObject(entry)) throw new UnknownInputError(`${where}: not an object`);
    for (const key of Object.keys(entry)) {
      if (!FIELDS.has(key)) throw new UnknownInputError(`${where}: unknown field "${key}"`, undefined, key);
    }
    const { change_id, reason, expires } = entry;
    if (typeof change_id !== 'string' || change_id === '')
      throw new UnknownInputError(`${where}: "change_id" must be a string`);
    if (typeof reason !== 'string' || reason.trim() === '')
      throw new UnknownInputError(`${where}: "reason" must be a non-empty string`);
    if (
      typeof expires !== 'string' ||
      !DATE.test(expires) ||
      Number.isNaN(Date.parse(`${expires}T00:00:00Z`))
    ) {
      throw new UnknownInputError(`${where}: "expires" must be a date YYYY-MM-DD`);
    }
    return { change_id, reason, expires };
  });
}

/** `today` is a UTC date YYYY-MM-DD: an approval expiring today still counts. */
export function applyApprovals(
  changes: readonly Change[],
  approvals: readonly Approval[],
  today: string,
): ApprovalOutcome {
  const ids = new Set(changes.map((change) => change.id));
  const expired = approvals.filter((approval) => approval.expires < today);
  const inForce = approvals.filter((approval) => approval.expires >= today);
  const used = inForce.filter((approval) => ids.has(approval.change_id));
  const unused = inForce.filter((approval) => !ids.has(approval.change_id));
  return { used, expired, unused, approved: new Set(used.map((approval) => approval.change_id)) };
}
