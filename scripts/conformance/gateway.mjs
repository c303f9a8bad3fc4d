// The gateway's transparency check: runs the official conformance suite's
// server scenarios against spec/fixtures/conformance-server.mjs directly, then
// against `rxmcp serve --http` in front of it (an allow-all policy, no
// prefix; the suite reaches it through bearer-front.mjs, which adds the
// gateway's bearer token), and prints a markdown table of both verdicts.
//
//   node scripts/conformance/gateway.mjs                  every server scenario
//   node scripts/conformance/gateway.mjs ping tools-list  just those
//   node scripts/conformance/gateway.mjs --direct         only against the server
//
// Each scenario runs once per era it applies to among 2025-11-25 and
// 2026-07-28 (an extension scenario runs once, with no version). The verdict
// is the suite's own exit code. Exits 1 when a scenario passes directly but
// fails through the gateway, unless KNOWN_GATEWAY_DIFFERENCES lists it; a
// scenario the server itself fails says nothing about the gateway: it is only
// reported, and not run through the gateway.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { bearerFront } from './bearer-front.mjs';
import { inPool, listScenarios, ROOT, start, stopAll, suite } from './suite-runner.mjs';

const SERVER = path.join(ROOT, 'spec/fixtures/conformance-server.mjs');
const CLI = path.join(ROOT, 'bin/rxmcp.mjs');
const ERAS = ['2025-11-25', '2026-07-28'];
const SCENARIO_TIMEOUT_MS = 30_000;
const RUN_TIMEOUT_MS = SCENARIO_TIMEOUT_MS + 30_000;
const START_TIMEOUT_MS = 30_000;
const PARALLEL = 2;

/** Scenarios that pass against the server but not through the gateway, each with why. */
const KNOWN_GATEWAY_DIFFERENCES = {};

/** The runs one scenario gets: once per era it applies to, or once with no version for an extension. */
function runsOf({ name, tags }) {
  const eras = ERAS.filter((era) => tags.includes(era));
  if (eras.length > 0) return eras.map((era) => ({ name, era }));
  return tags.includes('extension') ? [{ name, era: undefined }] : [];
}

function findChecks(directory) {
  if (!existsSync(directory)) return [];
  const file = readdirSync(directory, { recursive: true }).find((entry) => path.basename(String(entry)) === 'checks.json');
  return file === undefined ? [] : JSON.parse(readFileSync(path.join(directory, String(file)), 'utf8'));
}

async function runOne({ name, era }, url, outputDir) {
  const args = ['server', '--url', url, '--scenario', name, '--timeout', String(SCENARIO_TIMEOUT_MS), '-o', outputDir];
  if (era !== undefined) args.push('--spec-version', era);
  const { code, stdout, stderr, timedOut } = await suite(args, { timeoutMs: RUN_TIMEOUT_MS });
  const problems = findChecks(outputDir).filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
  return {
    verdict: code === 0 ? 'PASS' : 'FAIL',
    problems,
    // Without checks, what the suite printed is all there is to go on.
    note: timedOut
      ? `the suite did not finish within ${RUN_TIMEOUT_MS} ms`
      : code !== 0 && problems.length === 0
        ? `exit ${code}: ${lastLines(`${stdout}\n${stderr}`, 8)}`
        : undefined,
  };
}

const lastLines = (text, count) => text.trim().split('\n').slice(-count).join(' | ');

/** Starts a process that prints its MCP URL on its first stdout line (the conformance server). */
function startPrintingUrl(args, what) {
  const child = start(args);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} printed no URL within ${START_TIMEOUT_MS} ms:\n${stderr}`)), START_TIMEOUT_MS);
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolve({ child, url: line.trim() });
    });
    child.on('close', (code) => reject(new Error(`${what} exited (${code}) before it was ready:\n${stderr}`)));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `rxmcp serve --http` in front of `upstreamUrl`; resolves once its endpoint answers, with the URL of a front that adds its token. */
async function startGateway(upstreamUrl, workDir) {
  const config = path.join(workDir, 'servers.json');
  const policy = path.join(workDir, 'policy.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { conformance: { type: 'http', url: upstreamUrl } } }));
  writeFileSync(policy, JSON.stringify({ rules: [{ tool: '*', decision: 'allow' }] }));
  const port = await freePort();
  const token = randomBytes(32).toString('base64url');
  const child = start([CLI, 'serve', '--config', config, '--policy', policy, '--http', String(port), '--no-prefix', '--token-env', 'RXMCP_CONFORMANCE_TOKEN'], {
    env: { ...process.env, RXMCP_CONFORMANCE_TOKEN: token },
  });
  let output = '';
  const keep = (chunk) => (output = (output + chunk).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited;
  child.on('close', (code) => (exited = code));
  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited !== undefined) throw new Error(`rxmcp serve exited (${exited}) before it was ready:\n${output}`);
    try {
      // Any HTTP answer means it is listening; the suite judges the rest.
      await fetch(url, { method: 'GET', signal: AbortSignal.timeout(2000) }).then((response) => response.body?.cancel());
      const front = await bearerFront(url, token);
      return { child, url: front.url, close: front.close };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`rxmcp serve did not answer on ${url} within ${START_TIMEOUT_MS} ms:\n${output}`);
}

const argv = process.argv.slice(2);
const directOnly = argv.includes('--direct');
const wanted = argv.filter((arg) => arg !== '--direct');
const scenarios = await listScenarios('Server');
const unknown = wanted.filter((name) => !scenarios.some((scenario) => scenario.name === name));
if (unknown.length > 0) {
  console.error(`No such server scenario: ${unknown.join(', ')}`);
  process.exit(2);
}
const chosen = wanted.length > 0 ? scenarios.filter((scenario) => wanted.includes(scenario.name)) : scenarios;
const workDir = mkdtempSync(path.join(tmpdir(), 'rxmcp-conformance-gateway-'));
const started = Date.now();
let results;
let gateway;
try {
  const server = await startPrintingUrl([SERVER, '0'], 'the conformance server');
  gateway = directOnly ? undefined : await startGateway(server.url, workDir);
  results = await inPool(chosen.flatMap(runsOf), PARALLEL, async (run, index) => {
    const direct = await runOne(run, server.url, path.join(workDir, `${index}-direct`));
    // Only what passes directly is owed through the gateway: a scenario the
    // server itself fails (the tasks extension) is not run a second time.
    const through = gateway && direct.verdict === 'PASS' ? await runOne(run, gateway.url, path.join(workDir, `${index}-gateway`)) : undefined;
    process.stderr.write(`${run.name} ${run.era ?? 'extension'}: direct ${direct.verdict}, gateway ${through?.verdict ?? '-'}\n`);
    return { ...run, direct, through };
  });
} finally {
  await gateway?.close();
  stopAll();
}

const era = (result) => result.era ?? 'extension';
console.log('| scenario | era | direct | through gateway |');
console.log('| --- | --- | --- | --- |');
for (const result of results) {
  const known = result.direct.verdict === 'PASS' && result.through?.verdict === 'FAIL' && KNOWN_GATEWAY_DIFFERENCES[result.name] ? ' (known)' : '';
  console.log(`| ${result.name} | ${era(result)} | ${result.direct.verdict} | ${result.through?.verdict ?? '-'}${known} |`);
}

const describe = (label, outcome) => {
  if (outcome.note) console.log(`  - ${label}: ${outcome.note}`);
  for (const check of outcome.problems) console.log(`  - ${label}: ${check.status} ${check.id}: ${check.errorMessage ?? check.description}`);
};
const lost = results.filter((result) => result.direct.verdict === 'PASS' && result.through?.verdict === 'FAIL');
for (const result of lost) {
  const known = KNOWN_GATEWAY_DIFFERENCES[result.name];
  console.log(`\n${result.name} @ ${era(result)}: passes directly, fails through the gateway${known ? ` (known: ${known})` : ''}`);
  describe('gateway', result.through);
}
for (const result of results.filter((result) => result.direct.verdict === 'FAIL')) {
  console.log(`\n${result.name} @ ${era(result)}: the server itself does not pass`);
  describe('direct', result.direct);
}
const count = (which) => results.filter((result) => result[which]?.verdict === 'PASS').length;
console.log(`\nDirect: ${count('direct')}/${results.length} pass; through the gateway: ${directOnly ? '-' : `${count('through')}/${results.length}`}.`);
console.log(`Took ${Math.round((Date.now() - started) / 1000)} s. Results: ${workDir}`);
process.exit(lost.some((result) => !KNOWN_GATEWAY_DIFFERENCES[result.name]) ? 1 : 0);
