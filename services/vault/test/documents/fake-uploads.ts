import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Artifact, ProducedArtifact, ResolvedFile } from '@svc/contracts';
import { VAULT_DOCUMENT_UPLOAD_SLUG } from '@svc/contracts';
import { NotFoundError, ValidationError } from '@svc/errors';
import type { ObjectStore } from '@svc/storage';
import type { UploadsPort } from '../../src/domain/deps';

interface StoredArtifact extends ProducedArtifact {
  artifactId: string;
  clientId: string;
  runId: string;
}

/**
 * The uploads service as the vault's domain sees it, in memory, over the harness's real object
 * store: uploads of the `vault-document` target (owner-checked like uploads.resolveFiles) and
 * artifacts (prefix-checked like uploads.registerArtifacts). The real RPC path is covered by the
 * gateway's HTTP tests (G).
 */
export class FakeUploads implements UploadsPort {
  store: ObjectStore | undefined;
  readonly uploads = new Map<string, { clientId: string; file: ResolvedFile }>();
  readonly artifacts: StoredArtifact[] = [];
  readonly resolveRequests: Array<{ upload_ids: string[]; run_id?: string | undefined; slug: string }> = [];
  /** Set to make the next registerArtifacts fail (a lost uploads service). */
  failRegister = false;
  /** The run ids of every registerArtifacts call, failed ones included. */
  readonly registerAttempts: string[] = [];

  /** A complete upload of `bytes` owned by `clientId`; its id. */
  async add(clientId: string, filename: string, contentType: string, bytes: Uint8Array): Promise<string> {
    if (this.store === undefined) throw new Error('FakeUploads.store is not set');
    const uploadId = randomUUID();
    const key = `uploads/${uploadId}`;
    await this.store.put(key, Readable.from([Buffer.from(bytes)]), {
      contentType,
      sizeBytes: bytes.byteLength,
    });
    this.uploads.set(uploadId, {
      clientId,
      file: {
        upload_id: uploadId,
        filename,
        content_type: contentType,
        size_bytes: bytes.byteLength,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        facts: {},
        storage_key: key,
      },
    });
    return uploadId;
  }

  async resolveFiles(request: {
    client_id: string;
    slug: string;
    upload_ids: string[];
    run_id?: string | undefined;
  }) {
    this.resolveRequests.push(request);
    if (request.slug !== VAULT_DOCUMENT_UPLOAD_SLUG)
      throw new ValidationError(`unexpected slug ${request.slug}`);
    const files = request.upload_ids.map((id) => {
      const upload = this.uploads.get(id);
      if (upload === undefined || upload.clientId !== request.client_id)
        throw new NotFoundError(`unknown upload_id: ${id}`);
      return upload.file;
    });
    return { files };
  }

  async registerArtifacts(request: { client_id: string; run_id: string; artifacts: ProducedArtifact[] }) {
    this.registerAttempts.push(request.run_id);
    if (this.failRegister) {
      this.failRegister = false;
      throw new Error('uploads service lost');
    }
    for (const artifact of request.artifacts) {
      if (!artifact.storage_key.startsWith(`artifacts/${request.run_id}/`)) {
        throw new ValidationError(
          `artifact ${artifact.name}: storage_key must be under artifacts/${request.run_id}/`,
        );
      }
      this.artifacts.push({
        ...artifact,
        artifactId: randomUUID(),
        clientId: request.client_id,
        runId: request.run_id,
      });
    }
    return { registered: request.artifacts.length };
  }

  async listArtifacts(request: {
    client_id: string;
    run_id: string;
    base_url: string;
  }): Promise<{ artifacts: Artifact[] }> {
    const now = new Date();
    const artifacts = this.artifacts
      .filter((artifact) => artifact.runId === request.run_id && artifact.clientId === request.client_id)
      .map((artifact) => ({
        artifact_id: artifact.artifactId,
        run_id: artifact.runId,
        name: artifact.name,
        content_type: artifact.content_type,
        size_bytes: artifact.size_bytes,
        sha256: artifact.sha256,
        created_at: now.toISOString(),
        download_url: `${request.base_url}/api/artifacts/${artifact.artifactId}/download?expires=1&signature=${'x'.repeat(43)}`,
        download_expires_at: new Date(now.getTime() + 600_000).toISOString(),
      }));
    return { artifacts };
  }

  /** The bytes of a registered artifact, from the store. */
  async artifactBytes(runId: string): Promise<Buffer> {
    const artifact = this.artifacts.find((entry) => entry.runId === runId);
    if (artifact === undefined || this.store === undefined) throw new Error(`no artifact for ${runId}`);
    const chunks: Buffer[] = [];
    for await (const chunk of await this.store.get(artifact.storage_key)) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  }
}
