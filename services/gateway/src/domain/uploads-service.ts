import type { RpcRequest, RpcResponse, UploadRecord } from '@svc/contracts';

/** `uploads.createSession`: the file to upload, for which capability, and whose session it is. */
export type CreateUploadSession = RpcRequest<'uploads', 'createSession'>;
/** The session as the uploads service answers it: the upload and its token (shown once). */
export type CreatedUploadSession = RpcResponse<'uploads', 'createSession'>;
/** `uploads.listArtifacts`: a run's artifacts with links signed for the client, on the public base. */
export type ListArtifacts = RpcRequest<'uploads', 'listArtifacts'>;
export type ListedArtifacts = RpcResponse<'uploads', 'listArtifacts'>;

/**
 * The uploads service's RPC as the routes see it (main.ts adapts the `uploads` RPC client; unit
 * tests pass an in-memory fake). Errors are AppErrors and pass through unchanged: 404 for an unknown
 * capability or another client's upload (the same as a missing one), 409 for a capability that
 * cannot run, 422 for a file the capability does not take, 503 when the service does not answer.
 * The bytes themselves do not travel over RPC: uploads-data-proxy.ts streams them over HTTP.
 */
export interface UploadsService {
  createSession(request: CreateUploadSession): Promise<CreatedUploadSession>;
  getUpload(clientId: string, uploadId: string): Promise<UploadRecord>;
  listArtifacts(request: ListArtifacts): Promise<ListedArtifacts>;
}
