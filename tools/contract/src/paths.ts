import { join, resolve } from 'node:path';

/** The repository root (tools/contract/src → ../../..). */
export const REPO_ROOT = resolve(__dirname, '..', '..', '..');
export const CONTRACT_DIR = join(REPO_ROOT, 'contract');
export const MANIFEST_PATH = join(CONTRACT_DIR, 'manifest.json');
export const CHANGELOG_PATH = join(CONTRACT_DIR, 'changelog.json');
export const APPROVALS_PATH = join(CONTRACT_DIR, 'approvals.json');
