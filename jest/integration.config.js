// `pnpm test:integration [path…] [jest options]`: the `integration` project of jest.config.js alone (see one-project.js).
// Three workers for this tier (the unit tier keeps two): its suites mostly wait on spawned services,
// PostgreSQL and Redis, so a third worker fills the cores they leave idle. Measured on this 2-core
// machine, whole tier, quiet: 715 s with two workers, 630 s with three (issue 24 item 7); a run under
// load (about 12) with three: 723 s, every suite passing. `--maxWorkers=N` still overrides it.
module.exports = { ...require('./one-project.js')('integration'), maxWorkers: 3 };
