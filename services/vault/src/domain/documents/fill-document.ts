import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FillDocumentRequest, FillReport, ProducedArtifact, VaultDocument } from '@svc/contracts';
import { fieldSubject, openValue } from '@svc/vault-crypto';
import { recordDecryption } from '../audit';
import type { VaultDeps } from '../deps';
import { fillTemplate } from '../fill';
import { documentStorageKey, documentView } from './document-view';
import { type LoadedTemplate, loadTemplate } from './template-source';

export interface FillDocumentInput {
  clientId: string;
  requestId: string;
  baseUrl: string;
  request: FillDocumentRequest;
}

interface FieldSecret {
  name: string;
  ciphertext: Uint8Array;
  wrappedKey: Uint8Array;
  keyVersion: number;
}

/** The report a document row holds until its fill is done (such a row is never shown). */
const NO_REPORT: FillReport = { filled: [], unknown: [], not_allowed: [], empty: [] };

/**
 * `rpc.vault.fillDocument` (spec §4.20; docs/decisions.md VE8). In this order, so that a crash at
 * any line leaves nothing the sweep does not clean up, and no decryption without its audit line:
 * 1. the template is read (inline, or a `vault-document` upload from object storage);
 * 2. the fields to decrypt are chosen by name, by a dry run of the engine without values: those the
 *    template asks for that are both allowed by the request and the client's own (every other name
 *    is reported `unknown`/`not_allowed` and its value never read; a bad template is a 422 here);
 * 3. one transaction records the document row (no report yet) and one audit line per field about to
 *    be decrypted (purpose `fill`, subject the document) — from here the sweep knows the document;
 * 4. the fields are decrypted, in memory, and the template filled (domain/fill);
 * 5. the row gets its report; the bytes go to object storage under `artifacts/<document id>/document`;
 * 6. they are registered with the uploads service as the artifact of run `<document id>`;
 * 7. the artifact is listed for its signed link.
 * A failure in 4-6 deletes the object and the row (best effort; else the sweep does at expiry) and
 * is rethrown; the audit lines stay (the values may have been decrypted). A document without a
 * registered artifact is never shown (document-view.ts). The filled bytes go to object storage
 * only: never on the bus, in a log or a row.
 */
export async function fillDocument(deps: VaultDeps, input: FillDocumentInput): Promise<VaultDocument> {
  const { clientId, request } = input;
  const template = await loadTemplate(deps, clientId, request.template);
  const allowed = new Set(request.fields);
  const names = await deps.prisma.vaultField.findMany({ where: { clientId }, select: { name: true } });
  const known = new Set(names.map((row) => row.name));
  // A dry run without values: the names the template asks for that are allowed and the client's
  // come back as `empty` — exactly the fields to decrypt. It refuses a bad template (422) before
  // anything is recorded or decrypted.
  const dryRun = await fillTemplate({ ...templateInput(template), values: new Map(), allowed, known });
  const secrets: FieldSecret[] = await deps.prisma.vaultField.findMany({
    where: { clientId, name: { in: dryRun.report.empty } },
    select: { name: true, ciphertext: true, wrappedKey: true, keyVersion: true },
  });

  const documentId = randomUUID();
  const now = deps.now();
  const artifactName = request.filename ?? template.defaultFilename;
  const row = await deps.prisma.$transaction(async (tx) => {
    const created = await tx.vaultDocument.create({
      data: {
        id: documentId,
        clientId,
        report: NO_REPORT,
        artifactName,
        createdAt: now,
        expiresAt: new Date(now.getTime() + deps.settings.documentRetentionMs),
      },
    });
    for (const secret of secrets) {
      await recordDecryption(tx, {
        clientId,
        purpose: 'fill',
        field: secret.name,
        keyVersion: secret.keyVersion,
        subjectId: documentId,
        requestId: input.requestId,
      });
    }
    return created;
  });

  const key = documentStorageKey(documentId);
  let report: FillReport;
  try {
    const filled = await fillWith(deps, clientId, template, secrets, { allowed, known });
    report = filled.report;
    await deps.prisma.vaultDocument.update({ where: { id: documentId }, data: { report } });
    const artifact = await storeDocument(deps, key, artifactName, filled);
    // The artifact expires with the document: the uploads cleanup deletes its row and bytes then.
    await deps.uploads.registerArtifacts({
      client_id: clientId,
      run_id: documentId,
      artifacts: [artifact],
      expires_at: row.expiresAt.toISOString(),
    });
  } catch (err) {
    await discard(deps, documentId, key);
    throw err;
  }
  const listed = await deps.uploads.listArtifacts({
    client_id: clientId,
    run_id: documentId,
    base_url: input.baseUrl,
  });
  const registered = listed.artifacts.find((entry) => entry.name === artifactName);
  if (registered === undefined) {
    throw new Error(`document ${documentId}: its artifact is not listed after registration`);
  }
  return documentView({ ...row, report }, registered);
}

/** Decrypts the chosen fields and fills the template; the plaintexts live only in this call. */
async function fillWith(
  deps: Pick<VaultDeps, 'keys'>,
  clientId: string,
  template: LoadedTemplate,
  secrets: readonly FieldSecret[],
  scope: { allowed: ReadonlySet<string>; known: ReadonlySet<string> },
) {
  const values = new Map<string, string>();
  try {
    for (const secret of secrets) {
      const value = await openValue({
        kek: deps.keys,
        clientId,
        subject: fieldSubject(secret.name),
        ciphertext: secret.ciphertext,
        wrappedKey: secret.wrappedKey,
        keyVersion: secret.keyVersion,
      });
      values.set(secret.name, value);
    }
    return await fillTemplate({ ...templateInput(template), values, ...scope });
  } finally {
    values.clear();
  }
}

function templateInput(template: LoadedTemplate) {
  return { template: template.bytes, contentType: template.contentType };
}

/** Writes the filled bytes to object storage; what to register as the document's artifact. */
async function storeDocument(
  deps: Pick<VaultDeps, 'store'>,
  key: string,
  name: string,
  filled: { bytes: Uint8Array; contentType: string },
): Promise<ProducedArtifact> {
  const bytes = Buffer.from(filled.bytes.buffer, filled.bytes.byteOffset, filled.bytes.byteLength);
  await deps.store.put(key, Readable.from([bytes]), {
    contentType: filled.contentType,
    sizeBytes: bytes.length,
  });
  return {
    name,
    content_type: filled.contentType,
    size_bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    storage_key: key,
  };
}

/** Undoes a fill that stopped before its artifact was registered; what fails here the sweep deletes. */
async function discard(
  deps: Pick<VaultDeps, 'prisma' | 'store' | 'logger'>,
  documentId: string,
  key: string,
) {
  try {
    await deps.store.delete(key);
    await deps.prisma.vaultDocument.deleteMany({ where: { id: documentId } });
  } catch (err) {
    deps.logger.warn(
      { document_id: documentId, err: err instanceof Error ? err.message : String(err) },
      'vault fill: unfinished document not discarded; the sweep deletes it at its expiry',
    );
  }
}
