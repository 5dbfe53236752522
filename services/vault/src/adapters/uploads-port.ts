import type { RpcClient } from '@svc/bus';
import type { RpcCatalog } from '@svc/contracts';
import type { UploadsPort } from '../domain/deps';

/** The domain's uploads port on `rpc.uploads` (its AppErrors — 404, 409, 422, 503 — pass through). */
export function uploadsPort(uploads: RpcClient<RpcCatalog['uploads']>): UploadsPort {
  return {
    resolveFiles: async (request) => (await uploads.call('resolveFiles', request)).files,
    registerArtifacts: async (request) => {
      await uploads.call('registerArtifacts', request);
    },
    listArtifacts: async (request) => (await uploads.call('listArtifacts', request)).artifacts,
  };
}
