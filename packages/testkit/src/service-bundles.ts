// Which build of the services the test stacks run: the integration set-up bundles them once per run
// (@svc/devstack service-bundles.ts) and names the directory in this variable; ChildService and
// the suites that spawn one service themselves (serviceNodeArguments) read it.
import { existsSync } from 'node:fs';
import {
  bundledServiceArguments,
  type ServiceName,
  type ServiceNodeOptions,
  serviceBundlePath,
  sourceServiceArguments,
} from '@svc/devstack';

/** Environment variable naming the directory of the bundles (set by the integration set-up). */
export const SERVICE_BUNDLES_ENV = 'TESTKIT_SERVICE_BUNDLES';
/** Its value that keeps the services on their sources (tsx): to tell a bundling fault from a bug. */
export const SERVICE_BUNDLES_OFF = 'off';

export interface ServiceNodeArgumentOptions extends ServiceNodeOptions {
  /** Extra `--import` modules (execution probes): they hook the sources, so the service runs under tsx. */
  imports?: readonly string[];
}

/**
 * node's arguments (cwd: the workspace root) that start `name` as the integration tier runs its
 * services: the run's prebuilt bundle when `env` names one (about half the start-up CPU of tsx),
 * else `--import tsx services/<name>/src/main.ts`, as do `imports` (they hook the sources).
 */
export function serviceNodeArguments(
  name: ServiceName,
  env: NodeJS.ProcessEnv = process.env,
  options: ServiceNodeArgumentOptions = {},
): string[] {
  const bundles = env[SERVICE_BUNDLES_ENV];
  const bundled = bundles !== undefined && bundles !== '' && bundles !== SERVICE_BUNDLES_OFF;
  const parentWatch = options.parentWatch === true;
  if (bundled && options.imports === undefined) {
    const bundle = serviceBundlePath(bundles, name);
    if (!existsSync(bundle)) {
      throw new Error(`${SERVICE_BUNDLES_ENV}=${bundles} holds no bundle of ${name} (${bundle})`);
    }
    return bundledServiceArguments(bundles, name, { parentWatch });
  }
  return sourceServiceArguments(name, {
    parentWatch,
    ...(options.imports === undefined ? {} : { imports: options.imports }),
  });
}
