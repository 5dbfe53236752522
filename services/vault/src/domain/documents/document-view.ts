import { type Artifact, FillReport, type VaultDocument } from '@svc/contracts';
import type { VaultDeps } from '../deps';

/** Where a document's bytes are: under its artifact prefix, one fixed object name (the file name is the client's). */
export function documentStorageKey(documentId: string): string {
  return `artifacts/${documentId}/document`;
}

export interface DocumentRow {
  id: string;
  clientId: string;
  report: unknown;
  artifactName: string;
  createdAt: Date;
  expiresAt: Date;
}

export function documentView(row: DocumentRow, artifact: Artifact): VaultDocument {
  return {
    document_id: row.id,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    // Written from a FillReport only (fill-document.ts); parsed so a bad row fails loudly here.
    report: FillReport.parse(row.report),
    artifact,
  };
}

/**
 * The document's artifact with a fresh link signed for its owner, or undefined while it has none:
 * a document is recorded before its bytes are stored and registered (fill-document.ts), and one
 * whose fill stopped between the two is never shown — the sweep deletes it at its expiry.
 */
export async function documentArtifact(
  deps: Pick<VaultDeps, 'uploads'>,
  row: DocumentRow,
  baseUrl: string,
): Promise<Artifact | undefined> {
  const { artifacts } = await deps.uploads.listArtifacts({
    client_id: row.clientId,
    run_id: row.id,
    base_url: baseUrl,
  });
  return artifacts.find((artifact) => artifact.name === row.artifactName);
}
