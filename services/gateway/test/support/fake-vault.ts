import { randomUUID } from 'node:crypto';
import type { Artifact, RpcResponse, VaultExtraction, VaultField } from '@svc/contracts';
import type { AppError } from '@svc/errors';
import type {
  CreateExtraction,
  DeleteVaultField,
  FillDocument,
  GetExtraction,
  GetVaultDocument,
  ListExtractions,
  ListVaultDocuments,
  ReviewExtraction,
  SaveVaultField,
  VaultAudit,
  VaultService,
} from '../../src/domain/vault-service';

// A value no answer or log line may contain.
export const MARKER = 'MARKER-4f1d9c-secret';
export const NOW = '2026-11-26T16:00:00.000Z';

export function field(name: string, version = 1): VaultField {
  return {
    name,
    type: 'free_text',
    masked_value: 'M*** (20 chars)',
    version,
    source: { kind: 'entered' },
    key_version: 1,
    created_at: NOW,
    updated_at: NOW,
  };
}

export function extraction(id: string = randomUUID()): VaultExtraction {
  return {
    extraction_id: id,
    status: 'pending',
    version: 1,
    document: { kind: 'text', content_type: 'text/plain', pages: 1, characters: 10 },
    candidates: [],
    created_at: NOW,
    expires_at: NOW,
  };
}

function artifact(documentId: string, baseUrl: string): Artifact {
  const artifactId = randomUUID();
  return {
    artifact_id: artifactId,
    run_id: documentId,
    name: 'filled.txt',
    content_type: 'text/plain',
    size_bytes: 10,
    sha256: 'a'.repeat(64),
    created_at: NOW,
    download_url: `${baseUrl}/api/artifacts/${artifactId}/download?expires=1&signature=x`,
    download_expires_at: NOW,
  };
}

type Call =
  | { method: 'profile' | 'listFields'; request: string }
  | { method: 'saveField'; request: SaveVaultField }
  | { method: 'deleteField'; request: DeleteVaultField }
  | { method: 'createExtraction'; request: CreateExtraction }
  | { method: 'listExtractions'; request: ListExtractions }
  | { method: 'getExtraction'; request: GetExtraction }
  | { method: 'reviewExtraction'; request: ReviewExtraction }
  | { method: 'fillDocument'; request: FillDocument }
  | { method: 'listDocuments'; request: ListVaultDocuments }
  | { method: 'getDocument'; request: GetVaultDocument }
  | { method: 'audit'; request: VaultAudit };

/** The vault port in memory: records each call, answers fixed shapes, or throws `failNext` once. */
export class FakeVault implements VaultService {
  readonly calls: Call[] = [];
  failNext: AppError | null = null;
  readonly fields = new Map<string, VaultField>();

  private enter(call: Call): void {
    this.calls.push(call);
    const failure = this.failNext;
    this.failNext = null;
    if (failure) throw failure;
  }

  last(): Call | undefined {
    return this.calls.at(-1);
  }

  async profile(clientId: string): Promise<RpcResponse<'vault', 'profile'>> {
    this.enter({ method: 'profile', request: clientId });
    return {
      ok: true,
      profile: {
        fields_total: 0,
        by_type: {},
        common_fields: [],
        pending_extractions: 0,
        key_version: 1,
        fields_on_older_keys: 0,
      },
    };
  }

  async listFields(clientId: string): Promise<RpcResponse<'vault', 'listFields'>> {
    this.enter({ method: 'listFields', request: clientId });
    const fields = [...this.fields.values()];
    return { ok: true, count: fields.length, fields };
  }

  async saveField(request: SaveVaultField): Promise<RpcResponse<'vault', 'saveField'>> {
    this.enter({ method: 'saveField', request });
    const { name, expected_version } = request.field;
    const saved = field(name, (expected_version ?? 0) + 1);
    this.fields.set(name, saved);
    return { ok: true, outcome: expected_version === undefined ? 'created' : 'updated', field: saved };
  }

  async deleteField(request: DeleteVaultField): Promise<RpcResponse<'vault', 'deleteField'>> {
    this.enter({ method: 'deleteField', request });
    return { ok: true, deleted: { name: request.name, version: request.expected_version ?? 1 } };
  }

  async createExtraction(request: CreateExtraction): Promise<RpcResponse<'vault', 'createExtraction'>> {
    this.enter({ method: 'createExtraction', request });
    return { ok: true, extraction: extraction() };
  }

  async listExtractions(request: ListExtractions): Promise<RpcResponse<'vault', 'listExtractions'>> {
    this.enter({ method: 'listExtractions', request });
    return { ok: true, count: 0, extractions: [] };
  }

  async getExtraction(request: GetExtraction): Promise<RpcResponse<'vault', 'getExtraction'>> {
    this.enter({ method: 'getExtraction', request });
    return { ok: true, extraction: extraction(request.extraction_id) };
  }

  async reviewExtraction(request: ReviewExtraction): Promise<RpcResponse<'vault', 'reviewExtraction'>> {
    this.enter({ method: 'reviewExtraction', request });
    return { ok: true, extraction: extraction(request.extraction_id), saved_fields: [] };
  }

  async fillDocument(request: FillDocument): Promise<RpcResponse<'vault', 'fillDocument'>> {
    this.enter({ method: 'fillDocument', request });
    return { ok: true, document: this.document(randomUUID(), request.base_url) };
  }

  async listDocuments(request: ListVaultDocuments): Promise<RpcResponse<'vault', 'listDocuments'>> {
    this.enter({ method: 'listDocuments', request });
    return { ok: true, count: 0, documents: [] };
  }

  async getDocument(request: GetVaultDocument): Promise<RpcResponse<'vault', 'getDocument'>> {
    this.enter({ method: 'getDocument', request });
    return { ok: true, document: this.document(request.document_id, request.base_url) };
  }

  async audit(request: VaultAudit): Promise<RpcResponse<'vault', 'audit'>> {
    this.enter({ method: 'audit', request });
    return { ok: true, count: 0, events: [] };
  }

  private document(documentId: string, baseUrl: string) {
    return {
      document_id: documentId,
      created_at: NOW,
      expires_at: NOW,
      report: { filled: ['email'], unknown: [], not_allowed: [], empty: [] },
      artifact: artifact(documentId, baseUrl),
    };
  }
}
