import { UploadSessionInput, UploadSessionRequest, UploadSessionResponse } from '@svc/contracts';
import { createUploadSession } from '../../domain/upload-session';
import { defineTool } from '../tool-kit';
import { ClientTypeArg, SlugArg } from './args';

const { shape } = UploadSessionInput;
const UploadArgs = UploadSessionRequest.extend({
  slug: SlugArg,
  client_type: ClientTypeArg,
  input: UploadSessionInput.extend({
    filename: shape.filename.describe('The file name, with the extension of its type (e.g. "report.pdf").'),
    content_type: shape.content_type.describe('Its MIME type; one the describe file_requirements accept.'),
    size_bytes: shape.size_bytes.describe(
      'Its exact size in bytes; within file_requirements.max_size_bytes.',
    ),
  }).describe('The file about to be uploaded.'),
});

/** `svc_upload_session_create` = POST /api/capabilities/{slug}/upload-session (spec §4.6). */
export const uploadSessionTool = defineTool({
  name: 'svc_upload_session_create',
  title: 'Create an upload session',
  description:
    'For capabilities that take files (describe `file_requirements`): opens a short-lived session and ' +
    'returns `upload_url` and a private single-use `upload_token`. PUT the raw bytes to upload_url with ' +
    '`Authorization: Bearer <upload_token>` and the returned headers, then quote and run with ' +
    '`upload_id` in the input. Never log or share the token.',
  scope: 'uploads:write',
  input: UploadArgs,
  output: UploadSessionResponse,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  call: async ({ slug, ...request }, context) => {
    const body = await createUploadSession(context.services.uploads, {
      clientId: context.auth.clientId,
      slug,
      request,
      baseUrl: context.baseUrl(),
    });
    return {
      summary: `upload ${body.upload_id} open until ${body.expires_at}: PUT the bytes to ${body.upload_url}`,
      body,
    };
  },
});
