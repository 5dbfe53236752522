import { type Approval, type ApprovalOutcome, applyApprovals } from './approvals';
import { type Change, compareManifests } from './diff';
import type { CheckedManifest } from './manifest';

/** Exit codes of `pnpm contract check` (documented in the README and decision CC). */
export const EXIT = {
  /** Compatible: additive and behavioral-risk changes only, or every breaking change approved. */
  compatible: 0,
  /** At least one breaking change without an approval in force. */
  unapprovedBreaking: 1,
  /** Bad flags, a missing file or an unknown git ref. */
  usage: 2,
  /** A manifest or approvals file this checker does not understand (unknown format, kind or field). */
  unknownInput: 3,
} as const;

export interface CheckResult {
  readonly baseline: { readonly source: string; readonly version: string };
  readonly candidate: { readonly source: string; readonly version: string };
  readonly changes: readonly (Change & { readonly approved: boolean })[];
  readonly approvals: ApprovalOutcome;
  readonly exitCode: number;
}

export interface CheckInput {
  readonly baseline: CheckedManifest & { readonly source: string };
  readonly candidate: CheckedManifest & { readonly source: string };
  readonly approvals: readonly Approval[];
  /** UTC date YYYY-MM-DD. */
  readonly today: string;
}

export function checkCompatibility(input: CheckInput): CheckResult {
  const found = compareManifests(input.baseline, input.candidate);
  const approvals = applyApprovals(found, input.approvals, input.today);
  const changes = found.map((change) => ({ ...change, approved: approvals.approved.has(change.id) }));
  const blocked = changes.some((change) => change.class === 'breaking' && !change.approved);
  return {
    baseline: { source: input.baseline.source, version: input.baseline.version },
    candidate: { source: input.candidate.source, version: input.candidate.version },
    changes,
    approvals,
    exitCode: blocked ? EXIT.unapprovedBreaking : EXIT.compatible,
  };
}
