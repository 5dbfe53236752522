import type { JobHandler } from '@svc/bus';
import type { ObjectStore } from '@svc/storage';
import { createRunStorage } from '../domain/capability/run-storage';
import { makeThumbnails } from '../domain/image/make-thumbnails';
import { type CapabilityJobDeps, capabilityJobHandler } from './capability-job';

/**
 * `capability.image-thumbnail` (runtime node): the generic capability job around makeThumbnails
 * (sharp, on libuv's thread pool). Each thumbnail is an artifact of the run.
 */
export function imageThumbnailJobHandler(
  deps: CapabilityJobDeps & { store: ObjectStore },
): JobHandler<'capability.image-thumbnail'> {
  return capabilityJobHandler('capability.image-thumbnail', deps, ({ run_id, input, files }, signal) =>
    makeThumbnails({ input, files, storage: createRunStorage(deps.store, run_id) }, signal),
  );
}
