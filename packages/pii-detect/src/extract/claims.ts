import { VAULT_FIELD_TYPES } from '@svc/contracts';
import type { CandidateType } from './candidate';

/**
 * Labelled values' ranges: detectors' finds of another type inside them are dropped, and so are
 * all finds inside the values of "ignore" labels (order numbers, fax …). One entry per UTF-16 unit
 * of the page (0: free, IGNORED, or 1 + the index of the label's type in CLAIM_TYPES), so a check
 * costs the length of the span, not the number of labels.
 */
export class Claims {
  private readonly units: Uint8Array;
  constructor(length: number) {
    this.units = new Uint8Array(length);
  }
  claim(start: number, end: number, type: CandidateType | null) {
    this.units.fill(type === null ? IGNORED : CLAIM_TYPES.indexOf(type) + 1, start, end);
  }
  /**
   * Whether any of [start, end) is claimed for something other than `type`: any claim when null,
   * only an "ignore" label's claim for 'ignored-only'.
   */
  blocks(start: number, end: number, type: CandidateType | null | 'ignored-only'): boolean {
    for (let unit = start; unit < end; unit += 1) {
      const value = this.units[unit] ?? 0;
      if (value === 0) continue;
      if (type === 'ignored-only') {
        if (value === IGNORED) return true;
      } else if (type === null || value !== CLAIM_TYPES.indexOf(type) + 1) {
        return true;
      }
    }
    return false;
  }
}

const IGNORED = 255;
const CLAIM_TYPES: readonly CandidateType[] = VAULT_FIELD_TYPES;
