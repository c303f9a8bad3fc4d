// Runs the official MCP conformance suite's client scenarios against
// conformance/client.mjs and prints a markdown table of the results.
//
//   node scripts/conformance/run.mjs                      every client scenario
//   node scripts/conformance/run.mjs initialize auth/dpop  just those
//
// Each scenario runs once per spec version it applies to among 2025-11-25 and
// 2026-07-28; one that applies to neither runs at its own dated versions, and
// an extension scenario runs once. The verdict is the suite's own (its exit
// code): failed checks, warnings, a timeout or a client that exited non-zero
// where the scenario does not expect it all fail. Exits 1 when a scenario
// fails that KNOWN_NOT_PASSING does not list.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inPool, listScenarios, suite } from './suite-runner.mjs';

const CLIENT_COMMAND = 'node conformance/client.mjs';
const MAIN_VERSIONS = ['2025-11-25', '2026-07-28'];
const CLIENT_TIMEOUT_MS = 30_000;
// The suite's own timeout covers the client; this covers the suite itself.
const RUN_TIMEOUT_MS = CLIENT_TIMEOUT_MS + 30_000;
const PARALLEL = 2;

/** Scenarios expected to fail, each with why; a failure of any other scenario fails the run. */
const KNOWN_NOT_PASSING = {};

/** The runs one scenario gets: its versions among the main two, else its own dated ones, else one extension run. */
function runsOf({ name, tags }) {
  const main = tags.filter((tag) => MAIN_VERSIONS.includes(tag));
  if (main.length > 0) return main.map((version) => ({ name, version }));
  const dated = tags.filter((tag) => /^\d{4}-\d{2}-\d{2}$/.test(tag));
  if (dated.length > 0) return dated.map((version) => ({ name, version }));
  return [{ name, version: undefined }];
}

function findChecks(directory) {
  if (!existsSync(directory)) return undefined;
  const file = readdirSync(directory, { recursive: true }).find((entry) => path.basename(String(entry)) === 'checks.json');
  return file === undefined ? undefined : JSON.parse(readFileSync(path.join(directory, String(file)), 'utf8'));
}

async function runOne({ name, version }, outputRoot, index) {
  const outputDir = path.join(outputRoot, String(index));
  const args = ['client', '--command', CLIENT_COMMAND, '--scenario', name, '--timeout', String(CLIENT_TIMEOUT_MS), '-o', outputDir];
  if (version !== undefined) args.push('--spec-version', version);
  const { code, stdout, stderr, timedOut } = await suite(args, { timeoutMs: RUN_TIMEOUT_MS });
  const checks = findChecks(outputDir) ?? [];
  const count = (status) => checks.filter((check) => check.status === status).length;
  return {
    name,
    version: version ?? 'extension',
    passed: count('SUCCESS'),
    failed: count('FAILURE'),
    warnings: count('WARNING'),
    skipped: count('SKIPPED'),
    verdict: code === 0 ? 'PASS' : 'FAIL',
    problems: checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING'),
    // A suite that overstays leaves no checks behind: what it printed is all there is to go on.
    note: timedOut
      ? `the suite did not finish within ${RUN_TIMEOUT_MS} ms; the last it printed:\n${tail(`${stdout}\n${stderr}`, 30)}`
      : /CLIENT TIMED OUT|CLIENT EXITED WITH ERROR/.exec(stderr)?.[0],
  };
}

function tail(text, lines) {
  return text
    .trim()
    .split('\n')
    .slice(-lines)
    .map((line) => `      ${line}`)
    .join('\n');
}

const wanted = process.argv.slice(2);
const scenarios = await listScenarios('Client');
const unknown = wanted.filter((name) => !scenarios.some((scenario) => scenario.name === name));
if (unknown.length > 0) {
  console.error(`No such client scenario: ${unknown.join(', ')}`);
  process.exit(2);
}
const chosen = wanted.length > 0 ? scenarios.filter((scenario) => wanted.includes(scenario.name)) : scenarios;
const outputRoot = mkdtempSync(path.join(tmpdir(), 'rxmcp-conformance-'));
const results = await inPool(chosen.flatMap(runsOf), PARALLEL, async (run, index) => {
  const result = await runOne(run, outputRoot, index);
  process.stderr.write(`${result.verdict} ${result.name} ${result.version}\n`);
  return result;
});

console.log('| scenario | version | passed | failed | warnings | skipped | verdict |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const { name, version, passed, failed, warnings, skipped, verdict } of results) {
  const known = verdict === 'FAIL' && KNOWN_NOT_PASSING[name] ? ' (known)' : '';
  console.log(`| ${name} | ${version} | ${passed} | ${failed} | ${warnings} | ${skipped} | ${verdict}${known} |`);
}

const failing = results.filter((result) => result.verdict === 'FAIL');
for (const result of failing) {
  console.log(`\n${result.name} @ ${result.version}${KNOWN_NOT_PASSING[result.name] ? ` (known: ${KNOWN_NOT_PASSING[result.name]})` : ''}:`);
  if (result.note) console.log(`  - ${result.note}`);
  for (const check of result.problems) console.log(`  - ${check.status} ${check.id}: ${check.errorMessage ?? check.description}`);
}
const nowPassing = Object.keys(KNOWN_NOT_PASSING).filter(
  (name) => results.some((result) => result.name === name) && !failing.some((result) => result.name === name),
);
if (nowPassing.length > 0) console.log(`\nListed as not passing, but passed: ${nowPassing.join(', ')}`);
console.log(`\nResults: ${outputRoot}`);

const unexpected = failing.filter((result) => !KNOWN_NOT_PASSING[result.name]);
process.exit(unexpected.length > 0 ? 1 : 0);
