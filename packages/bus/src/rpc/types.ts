import type { z } from 'zod';
import type { RpcMethod, RpcMethods } from '../catalog';

export type MethodName<Methods extends RpcMethods> = keyof Methods & string;

/** Methods a service implements itself: everything but `ping`, which `serveRpc` answers. */
export type HandledMethodName<Methods extends RpcMethods> = Exclude<MethodName<Methods>, 'ping'>;

/** What `serveRpc` tells a handler about the call. */
export interface RpcContext {
  /** epoch ms after which the caller has given up: bound downstream work by it. */
  deadline: number;
  /** Id of the request (unique per call), for log correlation. */
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
