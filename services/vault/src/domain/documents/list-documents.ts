import type { VaultDocument } from '@svc/contracts';
import { NotFoundError } from '@svc/errors';
import type { VaultDeps } from '../deps';
import { type DocumentRow, documentArtifact, documentView } from './document-view';

/** Documents one list shows (newest first): documents live VAULT_DOCUMENT_RETENTION_HOURS only. */
export const DOCUMENT_LIST_LIMIT = 100;
/** listArtifacts calls in flight at once for one list. */
const LINK_CONCURRENCY = 8;

type DocumentDeps = Pick<VaultDeps, 'prisma' | 'uploads' | 'now'>;

/**
 * `rpc.vault.listDocuments`: the client's documents not yet past their retention, newest first
 * (at most DOCUMENT_LIST_LIMIT), each with a fresh download link.
 */
export async function listDocuments(
  deps: DocumentDeps,
  clientId: string,
  baseUrl: string,
): Promise<VaultDocument[]> {
  const rows = await deps.prisma.vaultDocument.findMany({
    where: { clientId, expiresAt: { gt: deps.now() } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: DOCUMENT_LIST_LIMIT,
  });
  const documents: VaultDocument[] = [];
  for (let at = 0; at < rows.length; at += LINK_CONCURRENCY) {
    const slice = rows.slice(at, at + LINK_CONCURRENCY);
    const artifacts = await Promise.all(slice.map((row) => documentArtifact(deps, row, baseUrl)));
    slice.forEach((row, index) => {
      const artifact = artifacts[index];
      if (artifact !== undefined) documents.push(documentView(row, artifact));
    });
  }
  return documents;
}

export function unknownDocument(documentId: string): NotFoundError {
  return new NotFoundError(`unknown document_id: ${documentId}`);
}

/** `rpc.vault.getDocument`: the client's document with a fresh link; anyone else's, expired or unfinished: 404. */
export async function getDocument(
  deps: DocumentDeps,
  clientId: string,
  documentId: string,
  baseUrl: string,
): Promise<VaultDocument> {
  const row: DocumentRow | null = await deps.prisma.vaultDocument.findFirst({
    where: { id: documentId, clientId, expiresAt: { gt: deps.now() } },
  });
  if (row === null) throw unknownDocument(documentId);
  const artifact = await documentArtifact(deps, row, baseUrl);
  if (artifact === undefined) throw unknownDocument(documentId);
  return documentView(row, artifact);
}
