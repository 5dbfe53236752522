import { type Bus, type RpcServer, type ServeRpcOptions, type ServiceHandlers, serveRpc } from '@svc/bus';
import type { PlatformCatalog } from '@svc/contracts';
import { listArtifacts, registerArtifacts } from '../domain/artifacts';
import { resolveFiles } from '../domain/resolve-files';
import { createSession, getUpload } from '../domain/sessions';
import type { UploadsDeps } from '../domain/settings';

/**
 * `rpc.uploads` methods (ping is answered by serveRpc itself). Transport only: requests arrive parsed
 * against rpcCatalog; AppErrors (404, 409, 422, 503) travel back to the caller as themselves.
 */
export function uploadsHandlers(deps: UploadsDeps): ServiceHandlers<PlatformCatalog, 'uploads'> {
  return {
    createSession: async ({ client_id, slug, input, token_sha256 }) => ({
      upload: await createSession(deps, {
        clientId: client_id,
        slug,
        input,
        tokenHash: Buffer.from(token_sha256, 'hex'),
      }),
    }),
    getUpload: ({ client_id, upload_id }) => getUpload(deps, client_id, upload_id),
    resolveFiles: async ({ client_id, slug, upload_ids, run_id }) => ({
      files: await resolveFiles(deps, {
        clientId: client_id,
        slug,
        uploadIds: upload_ids,
        ...(run_id === undefined ? {} : { runId: run_id }),
      }),
    }),
    registerArtifacts: async ({ client_id, run_id, artifacts, expires_at }) => ({
      registered: await registerArtifacts(deps, {
        clientId: client_id,
        runId: run_id,
        artifacts,
        ...(expires_at === undefined ? {} : { expiresAt: new Date(expires_at) }),
      }),
    }),
    listArtifacts: async ({ client_id, run_id, base_url }) => ({
      artifacts: await listArtifacts(deps, { clientId: client_id, runId: run_id, baseUrl: base_url }),
    }),
  };
}

export function serveUploadsRpc(
  bus: Bus<PlatformCatalog>,
  deps: UploadsDeps,
  options: ServeRpcOptions = {},
): RpcServer {
  return serveRpc(bus, 'uploads', uploadsHandlers(deps), options);
}
