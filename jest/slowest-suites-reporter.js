// jest reporter (jest.config.js `reporters`, next to jest's default one): after a run of two or
// more suites it prints the slowest suites with their seconds, so whoever waits on `pnpm test`
// sees where the time goes. It writes to stderr, like the default reporter, so that
// `jest --json` on stdout stays pure JSON; `--json --outputFile` (.ci/run) is unaffected.
// Plain CommonJS: jest loads reporters without transforming them.
const path = require('node:path');

/** How many suites to list unless the config says otherwise (`[path, { count: N }]`). */
const DEFAULT_COUNT = 15;

class SlowestSuitesReporter {
  /**
   * @param {{ rootDir: string }} globalConfig jest's global config (only rootDir is read)
   * @param {{ count?: number }} [options]
   */
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.count = options.count ?? DEFAULT_COUNT;
  }

  /**
   * @param {Set<unknown>} _contexts
   * @param {{ startTime: number, testResults: Array<{ testFilePath: string, displayName?: string | { name: string },
   *   perfStats: { start: number, end: number }, numFailingTests: number, testExecError?: unknown }> }} results
   *   jest's AggregatedResult (@jest/test-result), the fields read here
   */
  onRunComplete(_contexts, results) {
    // Suites that never ran (a syntax error, a failed globalSetup) have no timings worth listing.
    const suites = results.testResults
      .filter((suite) => suite.perfStats.end > 0 && suite.perfStats.start > 0)
      .map((suite) => ({
        file: path.relative(this.rootDir, suite.testFilePath),
        project: typeof suite.displayName === 'object' ? suite.displayName.name : suite.displayName,
        // Wall time of the suite in its worker, in ms: module loading, hooks and tests.
        ms: suite.perfStats.end - suite.perfStats.start,
        failed: suite.numFailingTests > 0 || suite.testExecError !== undefined,
      }));
    if (suites.length < 2) return;
    suites.sort((a, b) => b.ms - a.ms);
    const totalMs = suites.reduce((sum, suite) => sum + suite.ms, 0);
    const wallMs = Date.now() - results.startTime;
    const lines = [
      '',
      `Slowest ${Math.min(this.count, suites.length)} of ${suites.length} suites ` +
        `(suite time ${seconds(totalMs)} s in all, wall time ${seconds(wallMs)} s):`,
    ];
    for (const suite of suites.slice(0, this.count)) {
      const project = suite.project ? `${suite.project} ` : '';
      const mark = suite.failed ? '  (failed)' : '';
      lines.push(`${seconds(suite.ms).padStart(8)} s  ${project}${suite.file}${mark}`);
    }
    process.stderr.write(`${lines.join('\n')}\n`);
  }
}

/** ms as seconds with one decimal. */
function seconds(ms) {
  return (ms / 1000).toFixed(1);
}

module.exports = SlowestSuitesReporter;
