// Which build of the services the test stacks run: the integration set-up bundles them once per run
// (@svc/devstack service-bundles.ts) and names the directory in this variable; ChildService reads it.

/** Environment variable naming the directory of the bundles (set by the integration set-up). */
export const SERVICE_BUNDLES_ENV = 'TESTKIT_SERVICE_BUNDLES';
/** Its value that keeps the services on their sources (tsx): to tell a bundling fault from a bug. */
export const SERVICE_BUNDLES_OFF = 'off';
