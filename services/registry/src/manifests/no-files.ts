import type { FileRequirements } from '@svc/contracts';

/** File requirements of a capability that takes no files (its input is JSON only). */
export const NO_FILES: FileRequirements = {
  accepts_files: false,
  min_files: 0,
  max_files: 0,
  max_size_bytes: null,
  content_types: [],
};
