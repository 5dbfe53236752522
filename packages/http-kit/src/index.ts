export { clientGoneSignal } from './client-gone';
export type { EdgeHandler, EdgeLocals, EdgeResponse } from './locals';
export { createPublicBaseUrl } from './public-base-url';
export { REQUEST_ID_HEADER, requestId, resolveRequestId } from './request-id';
export { loggedUrl, requestLog } from './request-log';
export { proxiedRequestHeaders, reverseProxy } from './reverse-proxy';
export { safeRequestTarget } from './safe-target';
export { callUploadsData, relayArtifactContent, type UploadsDataTarget } from './uploads-data';
export {
  ClientGoneError,
  callUpstream,
  forwardedHeaders,
  readUpstreamJson,
  relayedError,
  relayHeaders,
  type UpstreamCall,
  type UpstreamExchange,
  type UpstreamTarget,
} from './upstream';
export { ERROR_PAGE_PATH, MAX_ERROR_PAGE_MESSAGE, upstreamErrorPage } from './upstream-error-page';
