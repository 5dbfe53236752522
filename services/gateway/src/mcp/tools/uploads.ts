import { McpUploadSessionTool } from '@svc/contracts';
import { createUploadSession } from '../../domain/upload-session';
import { defineTool } from '../tool-kit';

/** `svc_upload_session_create` = POST /api/capabilities/{slug}/upload-session (spec §4.6). */
export const uploadSessionTool = defineTool({
  ...McpUploadSessionTool,
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
