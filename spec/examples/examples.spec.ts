import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExampleRun, plainEnvironment, runExample } from '../support/examples.js';
import { headlessSignIn, type OAuthServers, startOAuthServers } from '../support/oauth.js';

// Every file of examples/ run as a user runs it, against real servers
// (server-everything over stdio, the gateway in front of it, a protected
// server with a real authorization server), first in this repository, then
// unchanged in a fresh folder that installed the packed package.

jest.setTimeout(120_000);

const root = join(__dirname, '..', '..');
const installed = (name: string): string => (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

let oauth: OAuthServers;
let sandbox: string;

beforeAll(async () => {
  oauth = await startOAuthServers();
  sandbox = mkdtempSync(join(tmpdir(), 'rxmcp-examples-'));
});

afterAll(async () => {
  await oauth?.stop();
  rmSync(sandbox, { recursive: true, force: true });
});

function expectStdio({ code, stdout }: ExampleRun): void {
  expect(stdout).toMatch(/^mcp-servers\/everything speaks 2025-11-25 \(legacy era\)$/m);
  expect(stdout).toMatch(/^\d+ tools: echo, .*get-sum/m);
  expect(stdout).toContain('The sum of 2 and 40 is 42.');
  expect(stdout).toContain('Echo: hello from rxmcp');
  expect(code).toBe(0);
}

function expectToolLoop({ code, stdout }: ExampleRun): void {
  expect(stdout).toContain('  call_1: The sum of 2 and 3 is 5.');
  expect(stdout).toContain('  ? may the model call everything_echo? (allowed once)');
  expect(stdout).toContain('  call_2: 20');
  expect(stdout).toContain('  call_3: Echo: sum was 5');
  expect(stdout).toContain('  call_4: Denied by policy: the environment holds secrets (refused)');
  expect(stdout).toContain('assistant: (2 + 3) × 4 = 20.');
  expect(code).toBe(0);
}

function expectTerminalUi({ code, stdout }: ExampleRun): void {
  expect(stdout).toMatch(/^the server offers \d+ tools$/m);
  expect(stdout).toContain('[####################] 5/5');
  expect(stdout).toContain('Long running operation completed. Duration: 2 seconds, Steps: 5.');
  expect(stdout).toContain('The server asks: Please provide inputs for the following fields:');
  expect(stdout).toContain('- Name: Ada Lovelace');
  // The fields left blank went with the form's defaults.
  expect(stdout).toContain('- Favorite Integer: 42');
  expect(code).toBe(0);
}

function expectGateway({ code, stdout }: ExampleRun): void {
  expect(stdout).toMatch(/^the gateway serves \d+ tools, among them everything_echo, everything_get-sum$/m);
  expect(stdout).toContain('The sum of 2 and 40 is 42.');
  expect(stdout).toContain('refused: Denied by policy: the environment holds secrets');
  expect(stdout).toMatch(/^refused: Permission could not be decided: the MCP host declared no elicitation/m);
  expect(code).toBe(0);
}

/** Runs sign-in.mjs twice against the protected server: the first run signs in (a person at the browser, played headless), the second uses the kept tokens. */
async function expectSignIn(file: string, cwd: string): Promise<void> {
  const env = { XDG_CONFIG_HOME: mkdtempSync(join(sandbox, 'config-')) };
  const visited: Promise<unknown>[] = [];
  const first = await runExample(file, {
    cwd,
    env,
    args: [oauth.url, '--no-browser'],
    onStderrLine: (line) => {
      const url = /^To sign in, open (\S+)$/.exec(line)?.[1];
      // The browser follows the authorization server's pages, then comes back to the example's loopback listener.
      if (url) visited.push(headlessSignIn(new URL(url)).then((back) => fetch(back, { signal: AbortSignal.timeout(5000) })));
    },
  });
  await Promise.all(visited);
  expect(visited).toHaveLength(1);
  expect(first.stdout).toContain('auth: signing-in');
  expect(first.stdout).toContain('auth: signed-in');
  expect(first.stdout).toMatch(/^\d+ tools: echo, add, /m);
  expect(first.code).toBe(0);

  const second = await runExample(file, { cwd, env, args: [oauth.url, '--no-browser'] });
  expect(second.stderr).not.toContain('To sign in');
  expect(second.stdout).not.toContain('auth: signing-in');
  expect(second.stdout).toMatch(/^\d+ tools: echo, add, /m);
  expect(second.code).toBe(0);
}

describe('the examples, run in this repository', () => {
  const example = (name: string): string => join(root, 'examples', name);

  it('stdio.mjs describes server-everything, lists its tools and calls two', async () => {
    expectStdio(await runExample(example('stdio.mjs'), { cwd: root }));
  });

  it('tool-loop.mjs runs the scripted model through the Policy: allowed, asked and denied calls', async () => {
    expectToolLoop(await runExample(example('tool-loop.mjs'), { cwd: root }));
  });

  it('terminal-ui.mjs draws the progress bar and answers the server’s question from stdin', async () => {
    expectTerminalUi(await runExample(example('terminal-ui.mjs'), { cwd: root, input: 'Ada Lovelace\n' }));
  });

  it('terminal-ui.mjs cancels the question when stdin ends before an answer', async () => {
    const { code, stdout } = await runExample(example('terminal-ui.mjs'), { cwd: root, input: '' });
    expect(stdout).toContain('"action": "cancel"');
    expect(stdout).not.toContain('- Name:');
    expect(code).toBe(0);
  });

  it('gateway/host.mjs reaches server-everything through rxmcp serve and its policy file', async () => {
    expectGateway(await runExample(example('gateway/host.mjs'), { cwd: root }));
  });

  it('sign-in.mjs signs in once through the loopback listener, and the next run uses the kept tokens', async () => {
    await expectSignIn(example('sign-in.mjs'), root);
  });

  it('sign-in.mjs without a URL says how to run it, with exit 2', async () => {
    const { code, stderr } = await runExample(example('sign-in.mjs'), { cwd: root });
    expect(stderr).toBe('usage: node sign-in.mjs URL [--no-browser]\n');
    expect(code).toBe(2);
  });
});

describe('the packed package, installed in a fresh folder', () => {
  it('ships the examples, the docs the README links to and the licence, and every example runs there unchanged', async () => {
    // dist/ is built already (npm test builds it first): packing without scripts leaves it alone for the specs running beside this one.
    const packed = join(sandbox, 'packed');
    mkdirSync(packed);
    const [{ filename, files }] = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packed], { cwd: root, encoding: 'utf8', env: plainEnvironment(), stdio: ['ignore', 'pipe', 'ignore'] }),
    ) as [{ filename: string; files: Array<{ path: string }> }];
    const shipped = new Set(files.map((file) => file.path));
    expect(shipped).toContain('LICENSE');
    expect(shipped).toContain('dist/esm/index.js');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\((?!https?:|#)([^)#\s]+)/g)].map((match) => match[1] as string);
    expect(links.length).toBeGreaterThan(5);
    const ships = (link: string): boolean => shipped.has(link) || [...shipped].some((path) => path.startsWith(link.endsWith('/') ? link : `${link}/`));
    expect(links.filter((link) => !ships(link))).toEqual([]);

    const app = join(sandbox, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
    // What the examples' headers ask for, at the versions this repository tests with (so the npm cache serves them).
    const wanted = ['rxjs', 'zod', '@modelcontextprotocol/server', '@modelcontextprotocol/server-everything'].map((name) => `${name}@${installed(name)}`);
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(packed, filename), ...wanted], { cwd: app, env: plainEnvironment(), stdio: 'ignore', timeout: 180_000 });
    cpSync(join(app, 'node_modules', 'rxmcp', 'examples'), app, { recursive: true });

    expectStdio(await runExample(join(app, 'stdio.mjs'), { cwd: app }));
    expectToolLoop(await runExample(join(app, 'tool-loop.mjs'), { cwd: app }));
    expectTerminalUi(await runExample(join(app, 'terminal-ui.mjs'), { cwd: app, input: 'Ada Lovelace\n' }));
    expectGateway(await runExample(join(app, 'gateway', 'host.mjs'), { cwd: app }));
    await expectSignIn(join(app, 'sign-in.mjs'), app);
  }, 300_000);
});
