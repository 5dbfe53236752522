import type { CandidateType } from './candidate';

/** A candidate before merging: offsets are UTF-16 indexes of its page. */
export interface Found {
  type: CandidateType;
  field_name: string;
  value: string;
  confidence: number;
  start: number;
  end: number;
}
