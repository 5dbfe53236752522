import { VAULT_FIELD_NAME_PATTERN, VAULT_MAX_CANDIDATES, VaultFieldType } from '@svc/contracts';
import { extractCandidates } from '@svc/pii-detect';
import { maskValue, normalizeFieldValue } from '../field-types';

/** A candidate the vault keeps: its value normalised as a field of its type would store it. */
export interface CheckedCandidate {
  fieldName: string;
  type: VaultFieldType;
  /** Plaintext: sealed before it is stored, never logged. */
  value: string;
  masked: string;
  confidence: number;
  page: number;
  spanStart: number;
  spanEnd: number;
}

/**
 * The candidates of a document's pages (docs/decisions.md VE3): the extractors' proposals
 * (@svc/pii-detect), each validated and normalised by its field type (the same rules a save
 * applies); a proposal its type refuses is dropped — approving it could only fail — as is one with
 * a name or type outside the catalog. At most VAULT_MAX_CANDIDATES are kept, the most confident
 * first; the kept ones are returned in document order (page, then position in the page).
 */
export function checkedCandidates(pages: readonly string[], now: Date): CheckedCandidate[] {
  const kept: CheckedCandidate[] = [];
  for (const candidate of extractCandidates([...pages])) {
    const type = VaultFieldType.safeParse(candidate.type);
    if (!type.success || !VAULT_FIELD_NAME_PATTERN.test(candidate.field_name)) continue;
    const normalized = normalizeFieldValue(type.data, candidate.value, { now });
    if (!normalized.ok) continue;
    kept.push({
      fieldName: candidate.field_name,
      type: type.data,
      value: normalized.value,
      masked: maskValue(type.data, normalized.value),
      confidence: Math.min(1, Math.max(0, candidate.confidence)),
      page: candidate.page,
      spanStart: candidate.span.start,
      spanEnd: candidate.span.end,
    });
  }
  const capped =
    kept.length <= VAULT_MAX_CANDIDATES ? kept : [...kept].sort(byConfidence).slice(0, VAULT_MAX_CANDIDATES);
  return capped.sort(byPosition);
}

/** Most confident first; ties keep document order (what `sort` is stable about). */
function byConfidence(a: CheckedCandidate, b: CheckedCandidate): number {
  return b.confidence - a.confidence || byPosition(a, b);
}

function byPosition(a: CheckedCandidate, b: CheckedCandidate): number {
  return a.page - b.page || a.spanStart - b.spanStart || a.spanEnd - b.spanEnd;
}
