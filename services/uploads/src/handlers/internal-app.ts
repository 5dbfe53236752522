import { pipeline } from 'node:stream';
import { ArtifactDownloadQuery, ArtifactIdParams, Uuid } from '@svc/contracts';
import {
  ForbiddenError,
  formatZodError,
  MethodNotAllowedError,
  NotFoundError,
  toErrorResponse,
  ValidationError,
} from '@svc/errors';
import type { Logger } from '@svc/log';
import { create as contentDisposition } from 'content-disposition';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { openArtifactDownload } from '../domain/artifacts';
import { ClientAbortedError } from '../domain/body-errors';
import { redeemUpload } from '../domain/redeem-upload';
import type { UploadsDeps } from '../domain/settings';
import { internalRequestLog } from './internal-log';
import { requestBody } from './request-body';

/** RFC 6750 challenge of every 401 of the upload route (docs/decisions.md U4). */
export const UPLOAD_CHALLENGE = 'Bearer realm="uploads"';
/** Header the gateway sets on a download: the client whose API key it verified (decisions A4). */
export const CLIENT_ID_HEADER = 'x-svc-client-id';

const UPLOAD_PATH = '/internal/uploads/:upload_id';
// ms: how long the rest of a refused PUT's body is read and dropped before the connection is cut.
const LINGER_MS = 30_000;
const CONTENT_PATH = '/internal/artifacts/:artifact_id/content';

/**
 * The uploads service's internal HTTP server (DATA_PORT), reached only through the gateway, which
 * streams bodies to it instead of sending bytes over the bus:
 * - `PUT /internal/uploads/:upload_id`: the upload's bytes (spec §4.7), authorized by the upload
 *   token; no body parser: the body is streamed into object storage as it arrives.
 * - `GET /internal/artifacts/:artifact_id/content?expires&signature`: an artifact's bytes for the
 *   client named in `x-svc-client-id`, after checking the link's signature (decisions A4).
 * Errors are `{ok:false, error}` with their status; 401s carry `WWW-Authenticate`.
 */
export function createInternalApp(deps: UploadsDeps, logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', false);
  app.use(internalRequestLog(logger));
  app.use(helmet());

  app.put(UPLOAD_PATH, async (req: Request<{ upload_id: string }>, res: Response) => {
    const body = requestBody(req, { idleTimeoutMs: deps.settings.idleTimeoutMs });
    try {
      const upload = await redeemUpload(deps, {
        uploadId: req.params.upload_id,
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        contentLength: req.headers['content-length'],
        body: body.stream,
      });
      res.setHeader('Cache-Control', 'no-store');
      res.status(200).json({ ok: true, upload });
    } catch (err) {
      if (!body.complete()) {
        // Refused before the whole body arrived: answer, and read and drop the rest (bounded by
        // LINGER_MS) instead of closing. Closing while the gateway still sends makes its next write
        // fail (EPIPE), which destroys the socket before it has read our answer: the client would
        // get a 503 instead of its 401/413/415/422. The gateway cuts the connection once it has
        // the answer, which ends the draining.
        body.discard();
        lingerThenClose(req, LINGER_MS);
      }
      throw err;
    }
  });

  app.get(CONTENT_PATH, async (req: Request<{ artifact_id: string }>, res: Response) => {
    const params = ArtifactIdParams.safeParse(req.params);
    if (!params.success) throw new ValidationError(formatZodError(params.error));
    const query = ArtifactDownloadQuery.safeParse(req.query);
    if (!query.success) throw new ValidationError(formatZodError(query.error));
    const clientId = Uuid.safeParse(req.headers[CLIENT_ID_HEADER]);
    // Set by the gateway after verifying the API key: without it no link can be valid.
    if (!clientId.success) throw new ForbiddenError('download link is not valid for this client');
    const { artifact, body } = await openArtifactDownload(deps, {
      artifactId: params.data.artifact_id,
      clientId: clientId.data,
      link: query.data,
    });
    // setHeader, not res.set: express would add a charset to text types, changing the stored type.
    const headers: Record<string, string> = {
      'Content-Type': artifact.contentType,
      'Content-Length': String(artifact.sizeBytes),
      'Content-Disposition': contentDisposition(artifact.name),
      ETag: `"${artifact.sha256}"`,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
      'X-Checksum-Sha256': artifact.sha256,
    };
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.status(200);
    // A reader that stops taking bytes with its socket open would hold the file (and the socket)
    // forever: after UPLOAD_IDLE_TIMEOUT_MS without a byte written the response is cut, which ends
    // the pipeline below and closes the file. A slow reader that takes bytes is never cut.
    res.setTimeout(deps.settings.idleTimeoutMs, () => res.destroy());
    pipeline(body, res, (err) => {
      if (err) logger.warn({ err, artifact_id: artifact.id }, 'artifact download ended early');
    });
  });

  app.all(UPLOAD_PATH, methodNotAllowed('PUT'));
  app.all(CONTENT_PATH, methodNotAllowed('GET, HEAD'));
  app.use((req: Request) => {
    throw new NotFoundError(`no route for ${req.method} ${req.path}`);
  });
  app.use(errorHandler(logger));
  return app;
}

/** Cuts the connection if the request's body has not ended within `ms` (a sender that never stops). */
function lingerThenClose(req: Request, ms: number): void {
  const timer = setTimeout(() => req.socket.destroy(), ms);
  timer.unref();
  const done = () => clearTimeout(timer);
  req.once('end', done);
  req.once('close', done);
}

/** 405 with `Allow` for a known path (docs/decisions.md D1). */
function methodNotAllowed(allow: string) {
  return (req: Request, res: Response): void => {
    res.setHeader('Allow', allow);
    throw new MethodNotAllowedError(`method ${req.method} not allowed`);
  };
}

/** Maps any error to `{ok:false, error}`; 5xx are logged with their cause (never sent to the client). */
function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    if (err instanceof ClientAbortedError || res.headersSent || req.socket.destroyed) {
      // Nobody to answer: the request log line records the aborted request.
      if (!(err instanceof ClientAbortedError)) logger.warn({ err }, 'error after the response started');
      if (!res.writableEnded) res.destroy();
      return;
    }
    const { status, body } = toErrorResponse(err);
    if (status >= 500) logger.error({ err, request_id: res.locals.requestId }, 'internal request failed');
    if (status === 401) res.setHeader('WWW-Authenticate', UPLOAD_CHALLENGE);
    res.status(status).json(body);
  };
}
