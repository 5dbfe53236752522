// `pnpm test [path…] [jest options]`: the unit tier, then the integration tier, one after the other,
// and the integration tier only when the unit tier passed (issue 24 item 7): a unit failure is known
// in about a minute, before a platform is started. Paths and jest options go to both tiers (each
// runs only what matches; a tier with nothing to run is skipped). `--json --outputFile=F` (.ci/run)
// writes one result file with both tiers merged, as a single jest run would.
// Plain CommonJS run by node: nothing to compile before the tests start.

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const JEST = path.join(ROOT, 'node_modules', '.bin', 'jest');
const TIERS = [
  { name: 'unit', config: path.join(__dirname, 'unit.config.js') },
  { name: 'integration', config: path.join(__dirname, 'integration.config.js') },
];

/** `--outputFile=F` or `--outputFile F`: F, and the arguments without it. */
function takeOutputFile(args) {
  const rest = [];
  let outputFile;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg.startsWith('--outputFile=')) outputFile = arg.slice('--outputFile='.length);
    else if (arg === '--outputFile') {
      outputFile = args[i + 1];
      i += 1;
    } else rest.push(arg);
  }
  return { outputFile, rest };
}

/** Two jest JSON results as one (the fields .ci/run and jest's own readers use). */
function merge(results) {
  const sum = (field) => results.reduce((total, result) => total + (result[field] ?? 0), 0);
  return {
    ...results[results.length - 1],
    numFailedTestSuites: sum('numFailedTestSuites'),
    numFailedTests: sum('numFailedTests'),
    numPassedTestSuites: sum('numPassedTestSuites'),
    numPassedTests: sum('numPassedTests'),
    numPendingTestSuites: sum('numPendingTestSuites'),
    numPendingTests: sum('numPendingTests'),
    numRuntimeErrorTestSuites: sum('numRuntimeErrorTestSuites'),
    numTodoTests: sum('numTodoTests'),
    numTotalTestSuites: sum('numTotalTestSuites'),
    numTotalTests: sum('numTotalTests'),
    startTime: Math.min(...results.map((result) => result.startTime)),
    success: results.every((result) => result.success),
    testResults: results.flatMap((result) => result.testResults),
  };
}

function main() {
  const { outputFile, rest } = takeOutputFile(process.argv.slice(2).filter((arg) => arg !== '--'));
  const scratch = outputFile === undefined ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'svc-tiers-'));
  const results = [];
  let status = 0;
  for (const tier of TIERS) {
    const tierOutput =
      scratch === undefined ? [] : [`--outputFile=${path.join(scratch, `${tier.name}.json`)}`];
    const started = Date.now();
    process.stderr.write(`\n==> ${tier.name} tier\n`);
    const run = spawnSync(JEST, ['--config', tier.config, '--passWithNoTests', ...tierOutput, ...rest], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    status = run.status ?? 1;
    process.stderr.write(
      `==> ${tier.name} tier: ${status === 0 ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s\n`,
    );
    if (scratch !== undefined) {
      const file = path.join(scratch, `${tier.name}.json`);
      if (fs.existsSync(file)) results.push(JSON.parse(fs.readFileSync(file, 'utf8')));
    }
    if (status !== 0) {
      if (tier.name === 'unit')
        process.stderr.write('==> the integration tier is not run: the unit tier failed\n');
      break;
    }
  }
  if (outputFile !== undefined && results.length > 0)
    fs.writeFileSync(outputFile, JSON.stringify(merge(results)));
  if (scratch !== undefined) fs.rmSync(scratch, { recursive: true, force: true });
  process.exitCode = status;
}

main();
