import { randomUUID } from 'node:crypto';
import { InternalError } from '@svc/errors';
import { createLogger, type Logger } from '@svc/log';
import type { BusCatalog, RpcServiceOf } from '../catalog';
import { catalogEntry } from '../catalog';
import { answerRequest, thrownReply } from './answer';
import { decodeReply, errorReply, okReply, type RpcReply } from './envelope';
import type { ServiceHandlers } from './server';
import {
  callTimedOut,
  type OutgoingCall,
  type RpcTransport,
  timedOutError,
  unavailableError,
} from './transport';
import type { RpcContext } from './types';

/** One call as it reached the transport (its request parsed by the client's schema). */
export interface RecordedCall {
  service: string;
  method: string;
  request: unknown;
}

/** What a planned fault does to the call it meets (fault injection, tests only). */
export type RpcFault =
  /** The handler throws `error`: an AppError reaches the caller as itself, anything else as 500. */
  | { kind: 'throw'; error: unknown }
  /**
   * The service answers `answer` without checking it, as a responder of another version would: the
   * caller's check of the response schema decides (503 when it does not match).
   */
  | { kind: 'reply'; answer: PlannedAnswer };

/**
 * What a planned reply carries: the data itself, or made from the request (e.g. the real answer,
 * fetched anew, with one field changed).
 */
export type PlannedAnswer = { data: unknown } | { from: (request: unknown) => unknown };

export interface InMemoryRpcOptions {
  /** Where the responders log (a handler that failed, an answer of the wrong shape). Default silent. */
  logger?: Logger;
}

type Answer = (method: string, raw: unknown, context: RpcContext) => Promise<RpcReply>;

interface PlannedFault {
  fault: RpcFault;
  /** Only a call of this method meets it; any method when absent. */
  method?: string;
}

/**
 * RPC in one process, for tests: `serviceClient(rpc, 'orchestrator', …)` reaches the handlers a
 * service passed to `rpc.serve(…)` as it reaches them over Redis (redis-transport.ts, server.ts):
 * the request checked by the client's schema, carried as JSON (what JSON drops is dropped, a request
 * that cannot be encoded is a 500), parsed again by the responder (400), the handler run, its answer
 * checked with the response schema (a wrong shape is 500 "internal error"), AppErrors rebuilt from
 * the wire (class and status kept, nothing else), other errors 500, an unreachable store 503, and
 * the reply checked by the client again (503 when it does not match). A service nobody serves, or
 * one marked `down`, fails after no wait with the 503 a timeout gives ("… did not answer within N ms");
 * a handler slower than the client's timeout gives the same 503 at the deadline.
 *
 * Fault injection: `down(service)`, and `failNext` / `replyNext` for the next call of a service
 * (optionally of one method). `calls()` lists the calls made, in order.
 */
export class InMemoryRpc<C extends BusCatalog> {
  readonly catalog: C;
  /** The transport clients made on this send through (service-client.ts). */
  readonly transport: RpcTransport;
  private readonly logger: Logger;
  private readonly responders = new Map<string, Answer>();
  private readonly downServices = new Set<string>();
  private readonly planned = new Map<string, PlannedFault[]>();
  private readonly recorded: RecordedCall[] = [];

  constructor(catalog: C, options: InMemoryRpcOptions = {}) {
    this.catalog = catalog;
    this.logger = options.logger ?? createLogger({ service: 'in-memory-rpc', level: 'silent' });
    this.transport = { logger: this.logger, send: (call) => this.send(call) };
  }

  /** Answers `service`'s calls with `handlers` (replacing any served before), as `serveRpc` would. */
  serve<S extends RpcServiceOf<C>>(service: S, handlers: NoInfer<ServiceHandlers<C, S>>): void {
    this.assertService(service);
    const methods = catalogEntry<C['rpc'], S>(this.catalog.rpc, service);
    const responder = { service, methods, handlers, logger: this.logger.child({ rpc: service }) };
    this.responders.set(service, (method, raw, context) => answerRequest(responder, method, raw, context));
  }

  /** While down, every call of `service` fails as an unanswered one does (503). */
  down(service: RpcServiceOf<C>): void {
    this.assertService(service);
    this.downServices.add(service);
  }

  up(service: RpcServiceOf<C>): void {
    this.downServices.delete(service);
  }

  /** The next call of `service` (of `method` if given) fails as if its handler threw `error`. */
  failNext(service: RpcServiceOf<C>, error: unknown, method?: string): void {
    this.plan(service, { fault: { kind: 'throw', error }, method });
  }

  /**
   * The next call of `service` (of `method` if given) gets `answer` (data, or data made from the
   * request) as its answer, unchecked by the service.
   */
  replyNext(service: RpcServiceOf<C>, answer: PlannedAnswer, method?: string): void {
    this.plan(service, { fault: { kind: 'reply', answer }, method });
  }

  /** Every service up again and every planned fault dropped (between tests). */
  clearFaults(): void {
    this.downServices.clear();
    this.planned.clear();
  }

  /** The calls made so far, oldest first; only those of `service` (and `method`) when given. */
  calls(service?: RpcServiceOf<C>, method?: string): RecordedCall[] {
    return this.recorded.filter(
      (call) =>
        (service === undefined || call.service === service) &&
        (method === undefined || call.method === method),
    );
  }

  /** Forgets the calls recorded so far (planned faults stay). */
  clearCalls(): void {
    this.recorded.length = 0;
  }

  private assertService(service: string): void {
    if (!Object.hasOwn(this.catalog.rpc, service)) throw new TypeError(`unknown RPC service ${service}`);
  }

  private plan(service: string, fault: PlannedFault): void {
    this.assertService(service);
    const list = this.planned.get(service) ?? [];
    list.push(fault);
    this.planned.set(service, list);
  }

  /** The first fault planned for this call, taken (each meets one call). */
  private takeFault(service: string, method: string): RpcFault | undefined {
    const list = this.planned.get(service);
    const index =
      list?.findIndex((planned) => planned.method === undefined || planned.method === method) ?? -1;
    if (list === undefined || index < 0) return undefined;
    const [taken] = list.splice(index, 1);
    return taken?.fault;
  }

  private async send(call: OutgoingCall): Promise<unknown> {
    const { service, method, request, timeoutMs } = call;
    this.recorded.push({ service, method, request });
    let raw: unknown;
    try {
      // Encoded as the Redis transport encodes it (JSON, inside the seal).
      raw = JSON.parse(JSON.stringify(request));
    } catch (err) {
      throw new InternalError(`could not encode the ${service}.${method} request`, { cause: err });
    }
    const answer = this.responders.get(service);
    if (this.downServices.has(service) || answer === undefined) throw timedOutError(service, timeoutMs);
    const fault = this.takeFault(service, method);
    const context: RpcContext = { deadline: Date.now() + timeoutMs, requestId: randomUUID() };
    const reply = await withinDeadline(this.reply(answer, fault, service, method, raw, context), timeoutMs);
    // The handler took the call (a service that is down never does): as over Redis, a bounded call
    // it had not answered by the deadline does not name it (deadline.ts).
    if (reply === undefined) throw callTimedOut(call, true);
    const decoded = decodeReply(wireCopy(reply));
    if (!decoded) throw unavailableError(service);
    if (!decoded.ok) throw decoded.error;
    return decoded.data;
  }

  private async reply(
    answer: Answer,
    fault: RpcFault | undefined,
    service: string,
    method: string,
    raw: unknown,
    context: RpcContext,
  ): Promise<RpcReply> {
    if (fault?.kind === 'throw') return thrownReply({ service, logger: this.logger }, method, fault.error);
    if (fault?.kind === 'reply') {
      const planned = fault.answer;
      return okReply('data' in planned ? planned.data : await planned.from(raw));
    }
    return answer(method, raw, context);
  }
}

/** The reply as the caller reads it after the wire (JSON); one that cannot be encoded is a 500, as in server.ts. */
function wireCopy(reply: RpcReply): unknown {
  try {
    return JSON.parse(JSON.stringify(reply));
  } catch {
    return errorReply(new InternalError('internal error'));
  }
}

/** The reply, or undefined when `timeoutMs` passes first (the handler goes on, as a real responder's would). */
async function withinDeadline(reply: Promise<RpcReply>, timeoutMs: number): Promise<RpcReply | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    return await Promise.race([reply, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A transport in this process for `catalog`: serve handlers on it, make clients with `serviceClient`. */
export function createInMemoryRpc<C extends BusCatalog>(
  catalog: C,
  options: InMemoryRpcOptions = {},
): InMemoryRpc<C> {
  return new InMemoryRpc(catalog, options);
}
