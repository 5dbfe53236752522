/**
 * Something `runService` closes at shutdown (HTTP servers, RPC responders, workers, queues, Redis,
 * Prisma). Structurally the same as @svc/bus's Closable; `name` only labels log lines.
 */
export interface Closable {
  close(): Promise<void>;
  name?: string;
}
