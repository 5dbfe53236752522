import { createHash, randomUUID } from 'node:crypto';
import type { Artifact, UploadRecord } from '@svc/contracts';
import { type AppError, NotFoundError, ServiceUnavailableError, ValidationError } from '@svc/errors';
import type {
  CreatedUploadSession,
  CreateUploadSession,
  ListArtifacts,
  ListedArtifacts,
  UploadsService,
} from '../../src/domain/uploads-service';

/**
 * An in-memory stand-in for the uploads service as the gateway sees it: its RPC (sessions, reads of
 * an upload, artifact manifests) and the state behind its internal HTTP server, which
 * fake-uploads-data.ts serves on loopback (token check, the PUT's bytes, signed downloads). Enough
 * behaviour for the gateway's mapping: owner-only reads (404 otherwise), a capability that takes no
 * files (422), `down` (503) and `failNext`. The real service has its own suites.
 */

export interface FakeSession {
  readonly clientId: string;
  /** SHA-256 (hex) of the token, as the gateway sent it: the fake never sees the token either. */
  readonly tokenSha256: string;
  record: UploadRecord;
}

export interface FakeArtifact {
  readonly clientId: string;
  readonly artifact: Omit<Artifact, 'download_url' | 'download_expires_at'>;
  readonly bytes: Buffer;
}

// s: lifetime of the fake's download links.
const LINK_TTL_S = 900;

/** The fake's link signature: the real one is an HMAC; the gateway only carries it through. */
export function fakeSignature(artifactId: string, clientId: string, expires: number): string {
  return createHash('sha256').update(`${artifactId}.${clientId}.${expires}`).digest('base64url');
}

export class FakeUploads implements UploadsService {
  readonly sessionRequests: CreateUploadSession[] = [];
  readonly listRequests: ListArtifacts[] = [];
  readonly sessions = new Map<string, FakeSession>();
  readonly artifacts = new Map<string, FakeArtifact>();
  down = false;
  failNext: AppError | null = null;

  async createSession(request: CreateUploadSession): Promise<CreatedUploadSession> {
    this.sessionRequests.push(request);
    this.enter();
    if (request.slug === 'crt') throw new ValidationError('capability crt takes no files');
    if (request.slug !== 'pdf-extract-text') throw new NotFoundError(`unknown capability: ${request.slug}`);
    const now = Date.now();
    const record: UploadRecord = {
      upload_id: randomUUID(),
      slug: request.slug,
      filename: request.input.filename,
      content_type: request.input.content_type,
      size_bytes: request.input.size_bytes,
      status: 'pending',
      sha256: null,
      facts: null,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + 900_000).toISOString(),
      completed_at: null,
      delete_after: null,
    };
    this.sessions.set(record.upload_id, {
      clientId: request.client_id,
      tokenSha256: request.token_sha256,
      record,
    });
    return { upload: record };
  }

  async getUpload(clientId: string, uploadId: string): Promise<UploadRecord> {
    this.enter();
    const session = this.sessions.get(uploadId);
    if (session === undefined || session.clientId !== clientId) {
      throw new NotFoundError(`unknown upload: ${uploadId}`);
    }
    return session.record;
  }

  async listArtifacts(request: ListArtifacts): Promise<ListedArtifacts> {
    this.listRequests.push(request);
    this.enter();
    const expires = Math.floor(Date.now() / 1000) + LINK_TTL_S;
    const artifacts = [...this.artifacts.values()]
      .filter((a) => a.artifact.run_id === request.run_id && a.clientId === request.client_id)
      .sort((a, b) => a.artifact.name.localeCompare(b.artifact.name))
      .map(({ artifact }) => {
        const query = new URLSearchParams({
          expires: String(expires),
          signature: fakeSignature(artifact.artifact_id, request.client_id, expires),
        });
        return {
          ...artifact,
          download_url: `${request.base_url}/api/artifacts/${artifact.artifact_id}/download?${query}`,
          download_expires_at: new Date(expires * 1000).toISOString(),
        };
      });
    return { artifacts };
  }

  /** An artifact of `runId` owned by `clientId`, as a worker's report would have registered it. */
  addArtifact(
    clientId: string,
    runId: string,
    name: string,
    bytes: Buffer,
    contentType = 'text/plain',
  ): string {
    const artifactId = randomUUID();
    this.artifacts.set(artifactId, {
      clientId,
      bytes,
      artifact: {
        artifact_id: artifactId,
        run_id: runId,
        name,
        content_type: contentType,
        size_bytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        created_at: new Date().toISOString(),
      },
    });
    return artifactId;
  }

  private enter(): void {
    const planned = this.failNext;
    if (planned !== null) {
      this.failNext = null;
      throw planned;
    }
    if (this.down) throw new ServiceUnavailableError('uploads service did not answer within 1000 ms');
  }
}
