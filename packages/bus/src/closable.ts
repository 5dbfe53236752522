/** Anything that holds resources and can release them (servers, workers, connections). */
export interface Closable {
  close(): Promise<void>;
}

/**
 * Runs `close` but gives up waiting after `timeoutMs` (then calls `force`, if given, to drop what is
 * left, e.g. disconnect sockets). `worker.close()` waits for active jobs with no timeout of its own
 * (see NOTES "BullMQ and Redis"), so every shutdown path goes through here.
 * Resolves `true` when closed in time, `false` when it timed out or threw; never rejects.
 */
export async function closeWithin(
  close: () => Promise<void>,
  timeoutMs: number,
  force?: () => void | Promise<void>,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const closed = close().then(
    () => true,
    () => false,
  );
  const inTime = await Promise.race([closed, timedOut]);
  clearTimeout(timer);
  if (!inTime && force) {
    try {
      await force();
    } catch {
      // Forcing is best effort: the process is going away anyway.
    }
  }
  return inTime;
}

/** Wraps a close function so that calling `close()` twice closes once (both callers await the same). */
export function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= close();
    return closing;
  };
}
