import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { apiOperation } from '@svc/contracts';
import { rawRoute } from '../routing/route';
import { jsonDocument } from './json-document';

/** The committed contract files (spec §9.2, §9.3), as bytes. */
export interface ContractFiles {
  /** contract/manifest.json */
  readonly manifest: string;
  /** contract/changelog.json */
  readonly changelog: string;
}

/** The repository's contract/ directory (services/gateway/src/routes → ../../../../contract). */
export const CONTRACT_DIR = resolve(__dirname, '..', '..', '..', '..', 'contract');

/** Reads the committed files once, at start; a missing file fails the start. */
export function readContractFiles(dir: string = CONTRACT_DIR): ContractFiles {
  return {
    manifest: readFileSync(join(dir, 'manifest.json'), 'utf8'),
    changelog: readFileSync(join(dir, 'changelog.json'), 'utf8'),
  };
}

/**
 * GET /contract/manifest.json and GET /contract/changelog.json (no auth, like /openapi.json): the
 * committed files' bytes exactly, so the manifest's SHA-256 is the changelog's newest
 * `manifest_sha256`. The ETag is that full hex SHA-256: a client compares it with the changelog
 * without downloading the manifest again.
 */
export function contractRoutes(files: ContractFiles) {
  const document = (body: string) => jsonDocument(body, createHash('sha256').update(body).digest('hex'));
  return {
    contractManifest: rawRoute(apiOperation('contractManifest'), document(files.manifest)),
    contractChangelog: rawRoute(apiOperation('contractChangelog'), document(files.changelog)),
  };
}
