import type { z } from 'zod';
import type { RpcMethod, RpcMethods } from '../catalog';

export type MethodName<Methods extends RpcMethods> = keyof Methods & string;

/** Methods a service implements itself: everything but `ping`, which `serveRpc` answers. */
export type HandledMethodName<Methods extends RpcMethods> = Exclude<MethodName<Methods>, 'ping'>;

/** What `serveRpc` tells a handler about the call. */
export interface RpcContext {
  /** epoch ms after which the caller has given up: bound downstream work by it. */
  deadline: number;
  /** BullMQ job id of the request, for log correlation. */
  requestId: string;
}

export type RpcHandler<Method extends RpcMethod> = (
  request: z.output<Method['request']>,
  context: RpcContext,
) => Promise<z.input<Method['response']>>;

/** One handler per method of the service, `ping` excepted. */
export type RpcHandlers<Methods extends RpcMethods> = {
  [M in HandledMethodName<Methods>]: RpcHandler<Methods[M]>;
};

/** Job data of an RPC request. New fields must stay optional: a queued request must still parse. */
export interface RpcJobData {
  request: unknown;
  /** epoch ms: when the caller stops waiting (its timeout). */
  deadline: number;
}
