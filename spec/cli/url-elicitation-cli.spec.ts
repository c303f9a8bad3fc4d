import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rxmcp } from '../support/cli.js';
import { eventually, everythingServer } from '../support/servers.js';

// A server's URL-mode elicitation at the command line: server-everything
// (legacy, stdio) asks to open a page (trigger-url-elicitation). No browser
// is launched: `xdg-open` on the PATH is a script that writes down the URL
// it was given, so the test sees whether, and what, the CLI opened.

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'rxmcp.mjs');
const everything = ['--', everythingServer.command, ...everythingServer.args];
const PAGE = 'https://example.com/connect?session=42';

let folder: string;
let opened: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'rxmcp-url-'));
  opened = join(folder, 'opened.txt');
  writeFileSync(join(folder, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`);
  chmodSync(join(folder, 'xdg-open'), 0o755);
});

afterEach(() => rmSync(folder, { recursive: true, force: true }));

const env = (): Record<string, string> => ({ PATH: `${folder}:${process.env.PATH ?? ''}` });
const call = (args: Record<string, unknown>): string[] => ['call', 'trigger-url-elicitation', JSON.stringify(args), ...everything];

describe('rxmcp and a server asking to open a page', () => {
  it('2025-11-25 client/elicitation, Safe URL Handling: shows the message, the URL and its host, and declines when stdin is not a terminal', async () => {
    const run = await rxmcp(call({ url: PAGE, message: 'Connect your \u001b]0;pwned\u0007account' }), { env: env() });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Connect your \\x1b]0;pwned\\x07account');
    expect(run.stderr).toContain(`URL:  ${PAGE}`);
    expect(run.stderr).toContain('Host: example.com');
    expect(run.stderr).not.toContain('\u001b');
    expect(run.stdout).toContain('User declined to open the URL');
    expect(existsSync(opened)).toBe(false);
  });

  it.each([
    ['javascript:alert(1)', "scheme javascript: is not https"],
    ['data:text/html,hi', 'scheme data: is not https'],
    ['http://example.com/plain', 'plain http to another machine'],
    ['https://bank.example@evil.example/', 'user name or password'],
    ['https://evil.example/\u001b[2Jgone', 'control characters'],
  ])('2025-11-25 client/elicitation, Safe URL Handling: declines %j and opens nothing', async (url, reason) => {
    const run = await rxmcp(call({ url }), { env: env() });
    // The CLI's own check says why (askToOpenUrl); were the client to decline first, the line would be missing, never the URL offered.
    if (run.stderr.includes('refused: ')) expect(run.stderr).toContain(reason);
    expect(run.stderr).not.toContain('URL:  ');
    expect(run.stderr).not.toContain('\u001b');
    expect(run.stdout).toContain('User declined to open the URL');
    expect(existsSync(opened)).toBe(false);
  });

  describe('in a real terminal', () => {
    const tmux = (...args: string[]): string => execFileSync('tmux', args, { encoding: 'utf8' });

    async function answered(key: string): Promise<string> {
      const session = `rxmcp-url-${process.pid}-${key || 'enter'}`;
      const command = [`PATH=${folder}:$PATH`, process.execPath, bin, ...call({ url: PAGE, message: 'Connect your account' }).map((arg) => `'${arg}'`)].join(' ');
      tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '30', `${command}; echo EXIT=$?; sleep 30`);
      const screen = () => tmux('capture-pane', '-t', session, '-p');
      try {
        await eventually(() => screen().includes('Open this page on example.com? [y/N]'), 15000);
        expect(screen()).toContain(`URL:  ${PAGE}`);
        // Nothing is opened before the person answers.
        expect(existsSync(opened)).toBe(false);
        tmux('send-keys', '-t', session, key, 'Enter');
        await eventually(() => screen().includes('EXIT=0'), 15000);
        return screen();
      } finally {
        tmux('kill-session', '-t', session);
      }
    }

    it('2025-11-25 client/elicitation, Safe URL Handling: opens the page only after a yes, and accepts', async () => {
      const screen = await answered('y');
      expect(screen).toContain('User completed the URL elicitation flow');
      await eventually(() => existsSync(opened));
      expect(readFileSync(opened, 'utf8')).toBe(`${PAGE}\n`);
    });

    it('declines on a bare Enter and opens nothing', async () => {
      const screen = await answered('');
      expect(screen).toContain('User declined to open the URL');
      expect(existsSync(opened)).toBe(false);
    });
  });
});
