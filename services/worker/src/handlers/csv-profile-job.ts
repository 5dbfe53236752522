import type { JobHandler } from '@svc/bus';
import type { ObjectStore } from '@svc/storage';
import { createRunStorage } from '../domain/capability/run-storage';
import { profileCsv } from '../domain/csv/profile-csv';
import { type CapabilityJobDeps, capabilityJobHandler } from './capability-job';

/**
 * `capability.csv-profile` (runtime node): the generic capability job around profileCsv, which
 * streams the one uploaded CSV from object storage. No artifact: the profile is the result.
 */
export function csvProfileJobHandler(
  deps: CapabilityJobDeps & { store: ObjectStore },
): JobHandler<'capability.csv-profile'> {
  return capabilityJobHandler('capability.csv-profile', deps, async ({ run_id, input, files }, signal) => {
    const [file] = files;
    if (file === undefined) throw new Error('csv-profile: the job carries no file');
    return profileCsv({ input, file, storage: createRunStorage(deps.store, run_id) }, signal);
  });
}
