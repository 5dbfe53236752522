import type { Approval } from './approvals';
import type { CheckResult } from './check';
import type { ChangeClass } from './rules';

export const REPORT_FORMAT = 'svc-contract-check/1';

const CLASSES: readonly ChangeClass[] = ['breaking', 'behavioral-risk', 'additive'];

/** The machine-readable report (`--json`). */
export function jsonReport(result: CheckResult): object {
  const count = (cls: ChangeClass) => result.changes.filter((change) => change.class === cls).length;
  return {
    format: REPORT_FORMAT,
    exit_code: result.exitCode,
    baseline: result.baseline,
    candidate: result.candidate,
    summary: {
      breaking: count('breaking'),
      'behavioral-risk': count('behavioral-risk'),
      additive: count('additive'),
      unapproved_breaking: result.changes.filter((change) => change.class === 'breaking' && !change.approved)
        .length,
    },
    changes: result.changes.map(({ id, class: cls, rule, element, pointer, message, approved }) => ({
      id,
      class: cls,
      rule,
      element,
      pointer,
      message,
      approved,
    })),
    approvals: {
      used: result.approvals.used,
      expired: result.approvals.expired,
      unused: result.approvals.unused,
    },
  };
}

/** A usage or unknown-input failure in `--json` mode. */
export function jsonError(
  exitCode: number,
  kind: 'usage' | 'unknown-input',
  message: string,
  extra: object = {},
): object {
  return { format: REPORT_FORMAT, exit_code: exitCode, error: { kind, message, ...extra } };
}

const approvalLine = (approval: Approval) =>
  `  ${approval.change_id} (expires ${approval.expires}): ${approval.reason}`;

/** The human report: a summary, then the changes grouped by class, one line each. */
export function humanReport(result: CheckResult): string {
  const lines = [
    `contract check: ${result.baseline.source} (${result.baseline.version}) → ${result.candidate.source} (${result.candidate.version})`,
  ];
  if (result.changes.length === 0) lines.push('No changes.');
  for (const cls of CLASSES) {
    const changes = result.changes.filter((change) => change.class === cls);
    if (changes.length === 0) continue;
    lines.push('', `${cls} (${changes.length}):`);
    for (const change of changes) {
      const mark = cls === 'breaking' ? (change.approved ? '[approved] ' : '[NOT APPROVED] ') : '';
      lines.push(`  ${mark}${change.id}`, `      ${change.message}`);
    }
  }
  if (result.approvals.expired.length > 0) {
    lines.push(
      '',
      'Expired approvals (they approve nothing):',
      ...result.approvals.expired.map(approvalLine),
    );
  }
  if (result.approvals.unused.length > 0) {
    lines.push(
      '',
      'Warning: approvals matching no change (remove them):',
      ...result.approvals.unused.map(approvalLine),
    );
  }
  const unapproved = result.changes.filter(
    (change) => change.class === 'breaking' && !change.approved,
  ).length;
  lines.push(
    '',
    unapproved > 0
      ? `FAIL: ${unapproved} breaking change(s) without an approval in force (exit ${result.exitCode}).`
      : `OK: compatible (exit ${result.exitCode}).`,
  );
  return `${lines.join('\n')}\n`;
}
