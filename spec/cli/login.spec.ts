import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { headlessSignIn, type OAuthServers, startOAuthServers } from '../support/oauth.js';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'rxmcp.mjs');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI with its config in `home`; `onLine` sees stderr as it
 * comes, so a test can play the person at the browser.
 */
function rxmcp(home: string, args: string[], onLine: (line: string) => void = () => undefined): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, env: { ...process.env, XDG_CONFIG_HOME: home } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    createInterface({ input: child.stderr }).on('line', (line) => {
      stderr += `${line}\n`;
      onLine(line);
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

describe('rxmcp login and logout', () => {
  let servers: OAuthServers;
  let home: string;
  beforeAll(async () => {
    servers = await startOAuthServers();
    home = mkdtempSync(join(tmpdir(), 'rxmcp-login-'));
  });
  afterAll(async () => {
    await servers?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('signs in through the browser once, after which every --url command uses the kept tokens', async () => {
    const before = await rxmcp(home, ['tools', '--url', servers.url]);
    expect(before.code).toBe(3);
    expect(before.stderr).toContain(`wants you to sign in: run rxmcp login --url ${servers.url}`);

    const browser: Promise<void>[] = [];
    const login = await rxmcp(home, ['login', '--url', servers.url, '--no-browser'], (line) => {
      const link = /https?:\/\/\S+/.exec(line)?.[0];
      // The person opens the link, signs in, and the browser lands on the CLI's loopback listener.
      if (line.startsWith('To sign in, open') && link) browser.push(headlessSignIn(new URL(link)).then((back) => fetch(back)).then(() => undefined));
    });
    await Promise.all(browser);
    expect(login.stderr).toContain(`signed in to ${servers.url}`);
    expect(login.code).toBe(0);
    expect(browser).toHaveLength(1);

    const files = readdirSync(join(home, 'rxmcp', 'tokens'));
    expect(files).toHaveLength(1);
    const file = join(home, 'rxmcp', 'tokens', files[0] as string);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const tools = await rxmcp(home, ['tools', '--url', servers.url, '--verbose']);
    expect(tools.code).toBe(0);
    expect(tools.stdout).toMatch(/^add\b/m);

    // No token leaves the file: not on the terminal, not in the servers' logs.
    const kept = readFileSync(file, 'utf8');
    const secrets = [...kept.matchAll(/"(?:accessToken|refreshToken)":\s*"([^"]+)"/g)].map((match) => match[1] as string);
    expect(secrets.length).toBeGreaterThan(0);
    const output = [before, login, tools].flatMap((run) => [run.stdout, run.stderr]).concat(servers.authorizationServer.stderr, servers.protectedServer.stderr).join('\n');
    for (const secret of secrets) expect(output).not.toContain(secret);

    const logout = await rxmcp(home, ['logout', '--url', servers.url]);
    expect(logout.code).toBe(0);
    expect(readdirSync(join(home, 'rxmcp', 'tokens'))).toEqual([]);
    const after = await rxmcp(home, ['tools', '--url', servers.url]);
    expect(after.code).toBe(3);
    expect(after.stderr).toContain('run rxmcp login');
  }, 30000);

  it('will not sign in to a server a token would reach in the clear', async () => {
    const run = await rxmcp(home, ['login', '--url', 'http://mcp.example.invalid/mcp']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('must not travel in the clear');
  });
});
