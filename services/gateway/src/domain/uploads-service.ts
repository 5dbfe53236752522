import type { ServiceClient } from '@svc/bus';
import type { PlatformCatalog, RpcRequest, RpcResponse } from '@svc/contracts';

/** `uploads.createSession`: the file to upload, for which capability, and whose session it is. */
export type CreateUploadSession = RpcRequest<'uploads', 'createSession'>;
/** The session as the uploads service answers it: the upload and its token (shown once). */
export type CreatedUploadSession = RpcResponse<'uploads', 'createSession'>;
/** `uploads.listArtifacts`: a run's artifacts with links signed for the client, on the public base. */
export type ListArtifacts = RpcRequest<'uploads', 'listArtifacts'>;
export type ListedArtifacts = RpcResponse<'uploads', 'listArtifacts'>;

/**
 * The uploads service as the routes and the MCP tools call it: the methods they use of its typed
 * client (@svc/bus serviceClient; main.ts builds it). Errors are AppErrors and pass through
 * unchanged: 404 for an unknown capability or another client's upload (the same as a missing one),
 * 409 for a capability that cannot run, 422 for a file the capability does not take, 503 when the
 * service does not answer. The bytes themselves do not travel over RPC: uploads-data-proxy.ts
 * streams them over HTTP.
 */
export type UploadsService = Pick<
  ServiceClient<PlatformCatalog, 'uploads'>,
  'createSession' | 'getUpload' | 'listArtifacts'
>;
