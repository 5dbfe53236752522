import { generateUploadToken, uploadTokenHash } from '@svc/auth';
import {
  apiOperation,
  operationPath,
  type UploadSessionRequest,
  UploadSessionResponse,
} from '@svc/contracts';
import { checkedBody } from './contract-body';
import type { UploadsService } from './uploads-service';

/** Where the bytes of an upload are sent: the path of its PUT operation. */
const uploadBytes = apiOperation('putUploadBytes');

export interface UploadSessionParams {
  readonly clientId: string;
  readonly slug: string;
  readonly request: UploadSessionRequest;
  /** The public base of the `upload_url` (public-base-url.ts). */
  readonly baseUrl: string;
}

/**
 * Opens an upload session (spec §4.6), for the REST route and the MCP tool
 * `svc_upload_session_create`: `uploads.createSession` checks the file against the capability (404
 * unknown, 409 blocked mode, 422 a file it does not take). The token is made here and only its
 * SHA-256 goes to the uploads service: the token never crosses the bus, so no Redis job keeps it
 * (decisions U4). It is shown to the client once, in the answer.
 */
export async function createUploadSession(
  uploads: UploadsService,
  params: UploadSessionParams,
): Promise<UploadSessionResponse> {
  const { request } = params;
  const upload_token = generateUploadToken();
  const { upload } = await uploads.createSession({
    client_id: params.clientId,
    slug: params.slug,
    input: request.input,
    client_type: request.client_type,
    token_sha256: uploadTokenHash(upload_token).toString('hex'),
  });
  return checkedBody(
    UploadSessionResponse,
    {
      ok: true,
      upload_id: upload.upload_id,
      upload_url: `${params.baseUrl}${operationPath(uploadBytes, { upload_id: upload.upload_id })}`,
      upload_token,
      method: 'PUT',
      // Exactly what the PUT must carry: the uploads service refuses another type (415) or
      // length (413/422) before reading a byte.
      headers: { 'Content-Type': upload.content_type, 'Content-Length': String(upload.size_bytes) },
      expires_at: upload.expires_at,
      upload,
    },
    `upload session ${upload.upload_id}`,
  );
}
