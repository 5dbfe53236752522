// Shared with the dashboard process (@svc/http-kit).
export { createPublicBaseUrl } from '@svc/http-kit';
