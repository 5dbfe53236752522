import type { EdgeResponse } from './locals';

/**
 * An AbortSignal that fires when the client's connection closes before our response is complete:
 * work done on its behalf (a run wait, an upstream request) stops instead of running to its deadline.
 */
export function clientGoneSignal(res: EdgeResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
