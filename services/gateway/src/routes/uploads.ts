import { CapabilitySlugParams, UploadIdParams, UploadResponse, UploadSessionRequest } from '@svc/contracts';
import { type Request, Router } from 'express';
import { checkedBody } from '../domain/contract-body';
import { createUploadSession, uploadPath } from '../domain/upload-session';
import type { UploadsService } from '../domain/uploads-service';
import { authOf, type GatewayResponse } from '../locals';
import { defineRoute } from '../middleware/method-not-allowed';
import { noStore } from '../middleware/no-store';
import { objectBody, parseRequest } from '../middleware/validate';
import type { RouteKit } from '../route-kit';
import { clientGoneSignal } from './client-gone';
import {
  ClientGoneError,
  callUploadsData,
  forwardedHeaders,
  readUpstreamJson,
  relayedError,
  relayHeaders,
  type UploadsDataTarget,
} from './uploads-data-proxy';

/**
 * `POST /api/capabilities/{slug}/upload-session` (spec §4.6). Mounted at /api/capabilities. Key and
 * scope first, then the JSON body (415/413/400), the slug and body shapes (422 without an RPC),
 * then createUploadSession (domain/upload-session.ts, shared with the MCP tool), which checks the
 * file against the capability (404 unknown, 409 blocked mode, 422 a file it does not take). The
 * answer carries the token: no-store.
 */
export function uploadSessionRouter(kit: RouteKit, uploads: UploadsService): Router {
  const router = Router();
  defineRoute(router, '/:slug/upload-session', {
    post: [
      noStore,
      kit.requireAuth('uploads:write'),
      ...kit.jsonBody,
      async (req, res) => {
        const { slug } = parseRequest(CapabilitySlugParams, req.params);
        const request = parseRequest(UploadSessionRequest, objectBody(req, '(UploadSessionRequest)'));
        const baseUrl = kit.publicBaseUrl(req);
        const body = await createUploadSession(uploads, {
          clientId: authOf(res).clientId,
          slug,
          request,
          baseUrl,
        });
        res.setHeader('Location', uploadPath(body.upload_id));
        res.status(201).json(body);
      },
    ],
  });
  return router;
}

// Request headers the PUT forwards: the token, what the uploads service checks before reading a
// byte (type, declared length), and nothing else (no cookies, no forwarding headers).
const PUT_FORWARDED = ['authorization', 'content-type', 'content-length'] as const;
// Response headers relayed from the uploads service: its 401 challenge names its own realm.
const PUT_RELAYED = ['www-authenticate'] as const;

/**
 * `PUT /api/capability-uploads/{upload_id}` (spec §4.7) and `GET` of the same path. Mounted at
 * /api/capability-uploads.
 *
 * The PUT has NO API-key check and no body parser: the upload token is its credential (spec §5.4),
 * checked by the uploads service, which also knows the declared size and type and so enforces the
 * body limit. An API key sent here reaches that service and gets its 401 ("… not an API key").
 * The gateway validates the path (422 before any bytes move), streams the body through, and relays
 * the status, the JSON body and `WWW-Authenticate`. The Authorization header is never logged
 * (request-log.ts logs method and URL only, and @svc/log scrubs `upl_…` from every line).
 *
 * GET is the owner's read (`uploads:write`): another client's upload is the same 404 as a missing one.
 */
export function capabilityUploadsRouter(
  kit: RouteKit,
  uploads: UploadsService,
  data: UploadsDataTarget,
): Router {
  const router = Router();
  defineRoute(router, '/:upload_id', {
    put: [noStore, (req, res) => putUpload(data, req, res)],
    get: [
      noStore,
      kit.requireAuth('uploads:write'),
      async (req, res) => {
        const { upload_id } = parseRequest(UploadIdParams, req.params);
        const upload = await uploads.getUpload(authOf(res).clientId, upload_id);
        res.json(checkedBody(UploadResponse, { ok: true, upload }, `upload ${upload_id}`));
      },
    ],
  });
  return router;
}

// ms: how long the rest of a refused PUT's body is read and dropped before the connection is cut.
const BODY_LINGER_MS = 30_000;

/** Stops forwarding the body and reads what is left of it, cutting the connection after `ms`. */
function drainForAnswer(req: Request, ms: number): void {
  req.unpipe();
  req.resume();
  const timer = setTimeout(() => req.socket.destroy(), ms);
  timer.unref();
  const done = () => clearTimeout(timer);
  req.once('end', done);
  req.once('close', done);
}

async function putUpload(data: UploadsDataTarget, req: Request, res: GatewayResponse): Promise<void> {
  const clientGone = clientGoneSignal(res);
  try {
    const { upload_id } = parseRequest(UploadIdParams, req.params);
    const exchange = await callUploadsData(data, {
      method: 'PUT',
      path: `/internal/uploads/${upload_id}`,
      headers: forwardedHeaders(req, res, PUT_FORWARDED),
      body: req,
      signal: clientGone,
    });
    const status = exchange.response.statusCode ?? 500;
    const body = await readUpstreamJson(exchange.response);
    // Answered before the whole body passed (a 401/413/415 before reading): stop sending it upstream.
    if (!req.complete) req.unpipe();
    // The exchange is over either way: its kept-alive connection is never reused.
    exchange.abort();
    relayHeaders(exchange.response, res, PUT_RELAYED);
    if (status !== 200) throw relayedError(status, body);
    res.json(checkedBody(UploadResponse, body, `uploads service answer for upload ${upload_id}`));
  } catch (err) {
    // Nobody to answer (also when the client left while the answer was being read: the upstream
    // exchange was cut with it); the request log records the abort.
    if (err instanceof ClientGoneError || clientGone.aborted) return;
    // An answer while the client is still sending (a malformed id, an early refusal upstream, 503):
    // read and drop the rest of the body for a bounded time instead of closing at once. A client
    // whose write fails on a closed connection (EPIPE) loses the answer that was already sent.
    if (!req.complete) drainForAnswer(req, BODY_LINGER_MS);
    throw err;
  }
}
