// Why an upload's body stopped before it was complete: the request body (handlers/request-body.ts)
// errors with one of these, the store's put fails with it, and nothing is kept (docs/decisions.md U4).

/** The client closed the connection before the whole body arrived (nobody is left to answer). */
export class ClientAbortedError extends Error {
  constructor() {
    super('the client closed the connection before the body was complete');
    this.name = 'ClientAbortedError';
  }
}

/**
 * The upload body made no progress for UPLOAD_IDLE_TIMEOUT_MS (half a body and an open socket): the
 * PUT is cut so its claim is released and the same token may retry at once (answered 408).
 */
export class BodyIdleError extends Error {
  constructor(readonly idleMs: number) {
    super(`upload body made no progress for ${idleMs} ms`);
    this.name = 'BodyIdleError';
  }
}
