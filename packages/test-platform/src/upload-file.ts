import { generateUploadToken, uploadTokenHash } from '@svc/auth';
import type { PlatformServices } from './platform-services';

/** A file as a client uploads it. */
export interface UploadedFile {
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/**
 * A complete upload of `file` for `slug`, owned by `clientId`, made the way the gateway makes one:
 * a session (only the token's hash goes to the uploads service), then the PUT of the bytes to the
 * uploads service's data port. The upload's id.
 */
export async function uploadFile(
  platform: PlatformServices,
  clientId: string,
  slug: string,
  file: UploadedFile,
): Promise<string> {
  const token = generateUploadToken();
  const { upload } = await platform.client('uploads').createSession({
    client_id: clientId,
    slug,
    input: { filename: file.filename, content_type: file.contentType, size_bytes: file.bytes.length },
    client_type: 'api',
    token_sha256: uploadTokenHash(token).toString('hex'),
  });
  const response = await fetch(`${platform.uploadsDataUrl}/internal/uploads/${upload.upload_id}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': file.contentType },
    body: new Uint8Array(file.bytes),
  });
  if (response.status !== 200) {
    throw new Error(`upload of ${file.filename}: ${response.status} ${await response.text()}`);
  }
  return upload.upload_id;
}
