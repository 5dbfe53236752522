// Shared with the dashboard process (@svc/http-kit).
export { clientGoneSignal } from '@svc/http-kit';
