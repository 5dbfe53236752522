import { apiOperation, operationPath, UploadResponse } from '@svc/contracts';
import {
  ClientGoneError,
  callUploadsData,
  forwardedHeaders,
  readUpstreamJson,
  relayedError,
  relayHeaders,
  type UploadsDataTarget,
} from '@svc/http-kit';
import { checkedBody } from '../domain/contract-body';
import { createUploadSession } from '../domain/upload-session';
import type { UploadsService } from '../domain/uploads-service';
import { rawRoute, route } from '../routing/route';

// Request headers the PUT forwards: the token, what the uploads service checks before reading a
// byte (type, declared length), and nothing else (no cookies, no forwarding headers).
const PUT_FORWARDED = ['authorization', 'content-type', 'content-length'] as const;
// Response headers relayed from the uploads service: its 401 challenge names its own realm.
const PUT_RELAYED = ['www-authenticate'] as const;

const getUpload = apiOperation('getUpload');

/**
 * Upload sessions, the bytes of an upload, and the upload as its owner reads it (spec §4.6, §4.7).
 *
 * `POST …/{slug}/upload-session`: the key and scope, the body and slug shapes (422 without an RPC),
 * then createUploadSession (domain/upload-session.ts, shared with the MCP tool), which checks the
 * file against the capability (404 unknown, 409 blocked mode, 422 a file it does not take). The
 * answer carries the token (no-store, as every credentialed answer).
 *
 * `PUT /api/capability-uploads/{upload_id}` has NO API-key check and no body parser: the upload
 * token is its credential (spec §5.4), checked by the uploads service, which also knows the declared
 * size and type and so enforces the body limit. An API key sent here reaches that service and gets
 * its 401 ("… not an API key"). The gateway validates the path (422 before any bytes move), streams
 * the body through, and relays the status, the JSON body and `WWW-Authenticate`; an answer given
 * while the body still arrives lets the rest drain first (routing/drain-body.ts). The Authorization
 * header is never logged (the request log has method and URL only; @svc/log scrubs `upl_…`).
 *
 * `GET` of the same path is the owner's read (`uploads:write`): another client's upload is the same
 * 404 as a missing one.
 */
export function uploadRoutes(uploads: UploadsService, data: UploadsDataTarget) {
  return {
    createUploadSession: route(
      apiOperation('createUploadSession'),
      async ({ auth, params, body }, context) => {
        const session = await createUploadSession(uploads, {
          clientId: auth.clientId,
          slug: params.slug,
          request: body,
          baseUrl: context.baseUrl(),
        });
        const location = operationPath(getUpload, { upload_id: session.upload_id });
        return { status: 201, body: session, headers: { Location: location } };
      },
    ),
    putUploadBytes: rawRoute(apiOperation('putUploadBytes'), async ({ params }, { req, res, clientGone }) => {
      const gone = clientGone();
      try {
        const exchange = await callUploadsData(data, {
          method: 'PUT',
          path: `/internal/uploads/${params.upload_id}`,
          headers: forwardedHeaders(req, res, PUT_FORWARDED),
          body: req,
          signal: gone,
        });
        const status = exchange.response.statusCode ?? 500;
        const answer = await readUpstreamJson(exchange.response);
        // Answered before the whole body passed (a 401/413/415 before reading): stop sending it upstream.
        if (!req.complete) req.unpipe();
        // The exchange is over either way: its kept-alive connection is never reused.
        exchange.abort();
        relayHeaders(exchange.response, res, PUT_RELAYED);
        if (status !== 200) throw relayedError(status, answer);
        res.json(
          checkedBody(UploadResponse, answer, `uploads service answer for upload ${params.upload_id}`),
        );
      } catch (err) {
        // Nobody to answer (also when the client left while the answer was being read: the upstream
        // exchange was cut with it); the request log records the abort.
        if (err instanceof ClientGoneError || gone.aborted) return;
        throw err;
      }
    }),
    getUpload: route(getUpload, async ({ auth, params }) => {
      const upload = await uploads.getUpload({ client_id: auth.clientId, upload_id: params.upload_id });
      return {
        status: 200,
        body: checkedBody(UploadResponse, { ok: true, upload }, `upload ${params.upload_id}`),
      };
    }),
  };
}
