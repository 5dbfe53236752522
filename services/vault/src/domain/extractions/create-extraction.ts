import { randomUUID } from 'node:crypto';
import type { VaultDocumentSource, VaultExtraction } from '@svc/contracts';
import { candidateSubject, sealValue } from '@svc/vault-crypto';
import type { VaultDeps } from '../deps';
import { checkedCandidates } from './candidates';
import { readDocumentPages } from './document-pages';
import { EXTRACTION_VIEW_SELECT, extractionView } from './extraction-view';

export interface CreateExtractionInput {
  clientId: string;
  source: VaultDocumentSource;
}

/**
 * `rpc.vault.createExtraction` (spec §4.19): reads the document (text, or a `vault-document`
 * upload), proposes candidates, and stores them — each sealed under a data key of its own with the
 * subject `candidate:<extraction>:<candidate>` — with the extraction in one statement (a nested
 * create: all rows or none). Nothing reaches the client's fields before a review approves it. An
 * extraction without candidates is `reviewed` at once (nothing is left to decide, the rule a review
 * applies too: docs/decisions.md VE4). The document's text is held in memory only.
 */
export async function createExtraction(
  deps: Pick<VaultDeps, 'prisma' | 'keys' | 'store' | 'uploads' | 'settings' | 'now'>,
  input: CreateExtractionInput,
): Promise<VaultExtraction> {
  const { clientId } = input;
  const document = await readDocumentPages(deps, clientId, input.source);
  const now = deps.now();
  const candidates = checkedCandidates(document.pages, now);
  const extractionId = randomUUID();
  const rows = await Promise.all(
    candidates.map(async (candidate, position) => {
      const id = randomUUID();
      const sealed = await sealValue({
        kek: deps.keys,
        clientId,
        subject: candidateSubject(extractionId, id),
        plaintext: candidate.value,
      });
      return {
        id,
        clientId,
        position,
        fieldName: candidate.fieldName,
        type: candidate.type,
        masked: candidate.masked,
        confidence: candidate.confidence,
        page: candidate.page,
        spanStart: candidate.spanStart,
        spanEnd: candidate.spanEnd,
        ciphertext: sealed.ciphertext,
        wrappedKey: sealed.wrappedKey,
        keyVersion: sealed.keyVersion,
      };
    }),
  );
  const { facts } = document;
  const row = await deps.prisma.vaultExtraction.create({
    data: {
      id: extractionId,
      clientId,
      status: rows.length === 0 ? 'reviewed' : 'pending',
      documentKind: facts.kind,
      uploadId: facts.uploadId ?? null,
      contentType: facts.contentType,
      pages: facts.pages,
      characters: facts.characters,
      createdAt: now,
      expiresAt: new Date(now.getTime() + deps.settings.extractionTtlMs),
      reviewedAt: rows.length === 0 ? now : null,
      candidates: { create: rows },
    },
    select: EXTRACTION_VIEW_SELECT,
  });
  return extractionView(row, now);
}
