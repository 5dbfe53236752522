// Shared with the dashboard process (@svc/http-kit).
export { loggedUrl, requestLog } from '@svc/http-kit';
