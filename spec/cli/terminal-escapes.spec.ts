import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rxmcp } from '../support/cli.js';
import { eventually, fixture } from '../support/servers.js';
import { RAW_IN_BLOCK } from '../support/unsafe-text.js';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'rxmcp.mjs');
const server = fixture('terminal-escapes-server.mjs');
const hostileServer = ['--', server.command, ...server.args];

// What the fixture wraps every word in, as it sends it…
const ESCAPES =
  '\x1b]52;c;cHduZWQ=\x07\x1b]0;owned\x07\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\\x1b[2A\x1b[2K\u009b31m\u202eevil\u202c\u2066\u200b\ufeff\u061c\u2028\x7f\r\udc00';
// …and as the terminal must show it (up to the lone surrogate, which a
// server's stderr, being bytes, can only send as U+FFFD).
const VISIBLE = String.raw`\x1b]52;c;cHduZWQ=\x07\x1b]0;owned\x07\x1b]8;;https://evil.example/\x1b\click\x1b]8;;\x1b\\x1b[2A\x1b[2K\x9b31m\u202eevil\u202c\u2066\u200b\ufeff\u061c\u2028\x7f\r`;
const shown = (label: string): string => `${label}<${VISIBLE}`;
// …and as JSON shows it, whole.
const JSON_VISIBLE = String.raw`\u001b]52;c;cHduZWQ=\u0007\u001b]0;owned\u0007\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\\u001b[2A\u001b[2K\u009b31m\u202eevil\u202c\u2066\u200b\ufeff\u061c\u2028\u007f\r\udc00`;

function expectNothingRaw(run: { stdout: string; stderr: string }): void {
  expect(run.stdout).not.toMatch(RAW_IN_BLOCK);
  expect(run.stderr).not.toMatch(RAW_IN_BLOCK);
}

describe('rxmcp against a server whose every word carries terminal escapes', () => {
  it.each<[string, string[], Array<['stdout' | 'stderr', string]>]>([
    ['describe', ['describe'], [['stdout', 'server-name'], ['stdout', 'version'], ['stdout', 'instructions']]],
    ['tools', ['tools'], [['stdout', 'tool-name'], ['stdout', 'shout-description']]],
    ['resources', ['resources'], [['stdout', 'resource-name']]],
    ['read', ['read', 'evil://resource'], [['stdout', 'resource-text']]],
    ['prompts', ['prompts'], [['stdout', 'prompt-description']]],
    ['prompt', ['prompt', 'greet'], [['stdout', 'prompt-text']]],
    ['a result, its log message and its progress', ['--log-level', 'info', 'call', 'shout'], [['stdout', 'result'], ['stderr', 'logger'], ['stderr', 'log'], ['stderr', 'progress']]],
    ['a JSON-RPC error, with --verbose stderr', ['--verbose', 'call', 'refuse'], [['stderr', 'error-message'], ['stderr', 'stderr']]],
    ['a declined question', ['call', 'ask'], [['stderr', 'question']]],
    ['task status messages', ['call', 'chore'], [['stderr', 'task-status']]],
    ['the task list', ['tasks'], [['stdout', 'task-id'], ['stdout', 'task-status']]],
    ['a dying server\'s last words', ['--verbose', 'call', 'die'], [['stderr', 'last-words']]],
  ])('shows %s as visible escapes, never raw', async (_, args, expected) => {
    const run = await rxmcp([...args, ...hostileServer]);
    expectNothingRaw(run);
    for (const [stream, label] of expected) expect(run[stream]).toContain(shown(label));
    expect(run.stderr).not.toContain('    at ');
  });

  it('shows the data of a JSON-RPC error with --verbose, as escaped JSON', async () => {
    const run = await rxmcp(['--verbose', 'call', 'refuse', ...hostileServer]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`error data: {"detail":"error-data<${JSON_VISIBLE}>"}\n`);
  });

  it('keeps the server\'s C1 and bidi characters out of a dead server\'s last words, which are already JSON-quoted', async () => {
    const run = await rxmcp(['call', 'die', ...hostileServer]);
    expect(run.code).toBe(3);
    expectNothingRaw(run);
    expect(run.stderr).toContain(String.raw`last-words<\u001b]52;c;cHduZWQ=\u0007`);
    expect(run.stderr).toContain(String.raw`\x9b31m\u202eevil\u202c`);
  });

  it('shows a lone surrogate as an escape, not as a replacement character', async () => {
    const run = await rxmcp(['call', 'shout', ...hostileServer]);
    expect(run.stdout).toContain(String.raw`${shown('result')}\udc00>`);
    expect(run.stdout).not.toContain('\ufffd');
  });

  it.each([
    ['describe', ['describe']],
    ['tools', ['tools']],
    ['call', ['call', 'shout']],
    ['tasks', ['tasks']],
    ['read', ['read', 'evil://resource']],
  ])('writes --json %s that parses back to exactly what the server sent, with C1 and bidi escaped', async (_, args) => {
    const run = await rxmcp(['--json', ...args, ...hostileServer]);
    expect(run.code).toBe(0);
    expectNothingRaw(run);
    expect(run.stdout).toContain(`<${JSON_VISIBLE}>`);
    const words: string[] = [];
    JSON.parse(run.stdout, (key, value: unknown) => {
      for (const word of [key, value]) if (typeof word === 'string' && word.includes('<\x1b')) words.push(word);
      return value;
    });
    expect(words).not.toHaveLength(0);
    for (const word of words) expect(word.slice(word.indexOf('<'))).toBe(`<${ESCAPES}>`);
  });

  describe('with a result nested 100,000 levels deep', () => {
    const depthOf = (value: unknown): number => {
      let depth = 0;
      for (let node = value; typeof node === 'object' && node !== null; node = (node as { a: unknown }).a) depth++;
      return depth;
    };

    it('prints it whole with --json, and the JSON parses, even for a reader slow to take it', async () => {
      const child = spawn(process.execPath, [bin, '--json', 'call', 'deep', ...hostileServer], { cwd: root });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      // Nobody reads stdout for a while: the pipe fills, and rxmcp must wait for it rather than exit.
      setTimeout(() => child.stdout.on('data', (chunk) => (stdout += chunk)), 1500);
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(depthOf(JSON.parse(stdout).structuredContent)).toBe(100000);
    }, 60000);

    it('prints it as text, and a log message as deep, without a crash', async () => {
      const run = await rxmcp(['--log-level', 'info', 'call', 'deep', ...hostileServer]);
      expect(run.code).toBe(0);
      expect(run.stdout.startsWith('deep\n{\n  "a": {\n')).toBe(true);
      expect(depthOf(JSON.parse(run.stdout.slice('deep\n'.length)))).toBe(100000);
      expect(run.stderr.startsWith('[info] {"a":{"a":')).toBe(true);
      expect(run.stderr).not.toContain('RangeError');
    }, 60000);

    it('answers a content block as deep with its text, or a one-line error and exit code 3, never a stack trace', async () => {
      const run = await rxmcp(['call', 'deep-link', ...hostileServer]);
      if (run.code === 0) expect(run.stdout).toContain('deep');
      else expect(run).toMatchObject({ code: 3, stderr: expect.stringMatching(/^rxmcp: [^\n]+\n$/) });
    }, 60000);
  });

  it('refuses a --url that is no URL as a usage mistake, its escapes spelled out, not a stack trace', async () => {
    const run = await rxmcp(['login', '--url', 'not a url\x1b]0;owned\x07']);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('rxmcp: --url wants an http or https URL, got "not a url\\u001b]0;owned\\u0007"');
    expect(run.stderr).not.toMatch(/[\x1b\x07]/);
    expect(run.stderr).not.toContain('    at ');
  });

  describe('in a real terminal', () => {
    // A tmux server of its own, so that the title and the clipboard it keeps
    // are this test's; it takes OSC 52 from programs into its paste buffers.
    let dir = '';
    const tmux = (...args: string[]): string =>
      execFileSync('tmux', ['-S', join(dir, 'socket'), '-f', join(dir, 'tmux.conf'), ...args], { encoding: 'utf8' });
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'rxmcp-tmux-'));
      writeFileSync(join(dir, 'tmux.conf'), 'set -s set-clipboard on\n');
    });
    afterAll(() => {
      try {
        tmux('kill-server');
      } catch {
        // Already gone.
      }
      rmSync(dir, { recursive: true, force: true });
    });

    it('shows a hostile elicitation form as visible escapes, and nothing in it acts on the terminal', async () => {
      const session = 'form';
      const command = [process.execPath, bin, 'call', 'ask', '--', server.command, ...server.args].join(' ');
      tmux('new-session', '-d', '-s', session, '-x', '400', '-y', '50', `${command}; echo EXIT=$?; sleep 30`);
      const screen = (): string => tmux('capture-pane', '-t', session, '-p', '-J');
      await eventually(() => screen().includes('(number):'), 10000);
      for (const label of ['question', 'title', 'field-description', 'label']) expect(screen()).toContain(shown(label));
      tmux('send-keys', '-t', session, '1', 'Enter');
      // The default is offered as visible text: raw, its CR would have pressed Enter.
      await eventually(() => screen().includes(`note: ${shown('default')}`), 5000);
      tmux('send-keys', '-t', session, 'Enter');
      await eventually(() => screen().includes('Send these answers?'), 5000);
      tmux('send-keys', '-t', session, 'Enter');
      await eventually(() => screen().includes('EXIT=0'), 10000);
      expect(screen()).toContain('"action":"accept"');
      expect(screen()).toContain('"red"');
      expect(tmux('display-message', '-p', '-t', session, '#{pane_title}')).not.toContain('owned');
      expect(tmux('list-buffers')).toBe('');
    }, 60000);
  });
});
