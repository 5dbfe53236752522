import type { Request } from 'express';
import type { SignedInAccount } from './ports';

/**
 * What the dashboard's middleware learns about a request, kept beside it (a WeakMap, so the typed
 * res.locals holds only what the shared edge middleware puts there, @svc/http-kit EdgeLocals).
 */
export interface DashboardSession {
  readonly account: SignedInAccount;
  /** The cookie's token: the CSRF key. Never logged, never rendered. */
  readonly token: string;
  readonly csrfToken: string;
}

export interface RequestState {
  session?: DashboardSession;
  /** The previous action's notice, read from its cookie (cleared once shown). */
  flash?: string;
}

const states = new WeakMap<Request, RequestState>();

export function requestState(req: Request): RequestState {
  let state = states.get(req);
  if (state === undefined) {
    state = {};
    states.set(req, state);
  }
  return state;
}
