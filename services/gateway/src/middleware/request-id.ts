// Shared with the dashboard process (@svc/http-kit).
export { REQUEST_ID_HEADER, requestId, resolveRequestId } from '@svc/http-kit';
