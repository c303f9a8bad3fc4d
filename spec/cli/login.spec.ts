import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rxmcp } from '../support/cli.js';
import { headlessSignIn, type OAuthServers, startOAuthServers } from '../support/oauth.js';

/** Runs the CLI with its config in `home`; `onLine` sees stderr as it comes, so a test can play the person at the browser. */
const inHome = (home: string, args: string[], onLine?: (line: string) => void) => rxmcp(args, { env: { XDG_CONFIG_HOME: home }, ...(onLine ? { onLine } : {}) });

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
    const before = await inHome(home, ['tools', '--url', servers.url]);
    expect(before.code).toBe(3);
    expect(before.stderr).toContain(`wants you to sign in: run rxmcp login --url ${servers.url}`);

    const browser: Promise<void>[] = [];
    const login = await inHome(home, ['login', '--url', servers.url, '--no-browser'], (line) => {
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

    const tools = await inHome(home, ['tools', '--url', servers.url, '--verbose']);
    expect(tools.code).toBe(0);
    expect(tools.stdout).toMatch(/^add\b/m);

    // No token leaves the file: not on the terminal, not in the servers' logs.
    const kept = readFileSync(file, 'utf8');
    const secrets = [...kept.matchAll(/"(?:accessToken|refreshToken)":\s*"([^"]+)"/g)].map((match) => match[1] as string);
    expect(secrets.length).toBeGreaterThan(0);
    const output = [before, login, tools].flatMap((run) => [run.stdout, run.stderr]).concat(servers.authorizationServer.stderr, servers.protectedServer.stderr).join('\n');
    for (const secret of secrets) expect(output).not.toContain(secret);

    const logout = await inHome(home, ['logout', '--url', servers.url]);
    expect(logout.code).toBe(0);
    expect(readdirSync(join(home, 'rxmcp', 'tokens'))).toEqual([]);
    const after = await inHome(home, ['tools', '--url', servers.url]);
    expect(after.code).toBe(3);
    expect(after.stderr).toContain('run rxmcp login');
  }, 30000);

  it('signs in to a configured HTTP server by its name, saying what it did as JSON with --json', async () => {
    const ownHome = mkdtempSync(join(tmpdir(), 'rxmcp-login-config-'));
    const config = join(ownHome, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { secured: { type: 'http', url: servers.url } } }));
    const named = ['--config', config, '--server', 'secured'];
    try {
      const before = await inHome(ownHome, [...named, 'tools']);
      expect(before.code).toBe(3);
      expect(before.stderr).toContain('wants you to sign in: run rxmcp login --server secured');
      const browser: Promise<void>[] = [];
      const login = await inHome(ownHome, [...named, 'login', '--no-browser', '--json'], (line) => {
        const link = /https?:\/\/\S+/.exec(line)?.[0];
        if (line.startsWith('To sign in, open') && link) browser.push(headlessSignIn(new URL(link)).then((back) => fetch(back)).then(() => undefined));
      });
      await Promise.all(browser);
      expect(login.code).toBe(0);
      expect(JSON.parse(login.stdout)).toEqual({ url: servers.url, signedIn: true });
      expect((await inHome(ownHome, [...named, 'tools'])).code).toBe(0);
      const logout = await inHome(ownHome, [...named, 'logout', '--json']);
      expect(JSON.parse(logout.stdout)).toEqual({ url: servers.url, signedOut: true });
      expect((await inHome(ownHome, [...named, 'tools'])).code).toBe(3);
    } finally {
      rmSync(ownHome, { recursive: true, force: true });
    }
  }, 30000);

  it('will not sign in to a server a token would reach in the clear', async () => {
    const run = await inHome(home, ['login', '--url', 'http://mcp.example.invalid/mcp']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('must not travel in the clear');
  });
});
