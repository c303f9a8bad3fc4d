import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../src/index.js';
import { rxmcp } from '../support/cli.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { eventually, everythingServer, fixture, modernServer } from '../support/servers.js';
import { hasEnded, processTree } from '../support/process-tree.js';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'rxmcp.mjs');

const everything = ['--', everythingServer.command, ...everythingServer.args];
const modern = ['--', modernServer.command, ...modernServer.args];

describe('rxmcp, the command line', () => {
  it('prints its complete help', async () => {
    const run = await rxmcp(['--help']);
    expect(run.code).toBe(0);
    for (const word of ['describe', 'tools', 'resources', 'templates', 'prompts', 'call TOOL', 'read URI', 'prompt NAME', 'listen', 'ping', '--url', '--header', '--env', '--cwd', '--arg', '--json', '--timeout', '--log-level', '--protocol-version', '--no-input', '--verbose']) {
      expect(run.stdout).toContain(word);
    }
  });

  it('prints its version alone with --version, as package.json has it', async () => {
    const run = await rxmcp(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`rxmcp ${(require('../../package.json') as { version: string }).version}\n`);
  });

  it.each([
    [['tools'], 'no server'],
    [['frobnicate', ...modern], 'unknown command "frobnicate"'],
    [['call', ...modern], 'wrong number of arguments for call'],
    [['call', 'echo', '--arg', 'oops', ...modern], '--arg wants key=value'],
    [['call', 'echo', '{not json', ...modern], 'the arguments are not valid JSON: at line 1, column 2 (character 2): expected a key in double quotes or "}", found "n"'],
    [['call', 'echo', '{"a":', ...modern], 'the arguments are not valid JSON: at line 1, column 6 (character 6): expected a value, found the end of the text'],
    [['call', 'echo', '[1, 2', '--url', 'http://127.0.0.1:1/mcp'], 'the arguments are not valid JSON: at line 1, column 6 (character 6): expected "," or "]", found the end of the text'],
    [['tools', '--no-check', ...modern], '--no-check goes with call and prompt'],
    [['--url', 'http://127.0.0.1:1/mcp', 'tools', ...modern], 'not both'],
    [['--url', 'foo', 'tools'], '--url wants an http or https URL, got "foo"'],
    [['--url', 'file:///etc/passwd', 'tools'], '--url wants an http or https URL'],
  ])('exits 2 on a usage mistake: %j', async (args, message) => {
    const run = await rxmcp(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  describe('against server-everything (stdio, legacy)', () => {
    it('describes it, as JSON', async () => {
      const run = await rxmcp(['describe', '--json', ...everything]);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', serverInfo: { name: 'mcp-servers/everything' } });
    });

    it('shows titles, that an icon is there (never its src) and hints in the listings, and no icon it dropped', async () => {
      const icons = ['--', process.execPath, join(root, 'spec/fixtures/icons-server.mjs')];
      const tools = (await rxmcp(['tools', ...icons])).stdout;
      expect(tools).toMatch(/^painted\s+Painted tool  \[icon\] \[server says: read-only\]$/m);
      expect(tools).toMatch(/^bare$/m);
      expect((await rxmcp(['prompts', ...icons])).stdout).toMatch(/^greet\s+Greeting  \[icon\]$/m);
      expect((await rxmcp(['resources', ...icons])).stdout).toMatch(/^file:\/\/\/a\.txt\s+The letter a  \[icon\]$/m);
      expect((await rxmcp(['templates', ...icons])).stdout).toMatch(/^file:\/\/\/\{x\}\s+files  \[icon\]$/m);
      const described = JSON.parse((await rxmcp(['describe', '--json', ...icons])).stdout);
      expect(described.serverInfo.icons).toEqual([{ src: 'https://example.com/good-server.svg', mimeType: 'image/svg+xml' }]);
    });

    it('lists tools, resources, templates and prompts', async () => {
      const tools = JSON.parse((await rxmcp(['tools', '--json', ...everything])).stdout) as Array<{ name: string }>;
      expect(tools.map((t) => t.name)).toContain('get-sum');
      const text = (await rxmcp(['tools', ...everything])).stdout;
      // The title first, then the description's first line, then the server's own hints.
      expect(text).toMatch(/^get-sum\s+Get Sum Tool: Returns the sum of two numbers  \[server says: read-only, idempotent\]$/m);
      expect(JSON.parse((await rxmcp(['resources', '--json', ...everything])).stdout).length).toBeGreaterThan(0);
      expect(JSON.parse((await rxmcp(['templates', '--json', ...everything])).stdout).length).toBeGreaterThan(0);
      expect(JSON.parse((await rxmcp(['prompts', '--json', ...everything])).stdout).length).toBeGreaterThan(0);
    });

    it('calls a tool with --arg, reads a resource, renders a prompt and pings', async () => {
      const sum = await rxmcp(['call', 'get-sum', '--arg', 'a=2', '--arg', 'b=40', ...everything]);
      expect(sum).toMatchObject({ code: 0, stdout: expect.stringContaining('42') });
      const resources = JSON.parse((await rxmcp(['resources', '--json', ...everything])).stdout) as Array<{ uri: string }>;
      const read = await rxmcp(['read', resources[0]?.uri as string, '--json', ...everything]);
      expect(JSON.parse(read.stdout).contents[0].uri).toBe(resources[0]?.uri);
      const prompt = await rxmcp(['prompt', 'simple-prompt', ...everything]);
      expect(prompt.stdout).toMatch(/^user: /);
      expect((await rxmcp(['ping', ...everything])).stdout).toBe('pong\n');
    });

    it.each([
      [['call', 'get-sum', 'a=1'], 'tool "get-sum" needs argument "b" (number), which was not given'],
      [['call', 'get-sum', '{}'], 'tool "get-sum" needs arguments "a" (number), "b" (number), which were not given'],
      [['call', 'get-sum', '{"a":"one","b":2}'], 'tool "get-sum" wants "a" as number, got "one"'],
      [['call', 'get-sum', 'b=2', '--arg', 'a=[1]'], 'tool "get-sum" wants "a" as number, got [1]'],
      [['prompt', 'args-prompt', 'state=IDF'], 'prompt "args-prompt" needs argument "city", which was not given'],
      [['prompt', 'args-prompt', 'city=Paris', 'country=France'], 'prompt "args-prompt" has no argument "country"; it takes "city", "state"'],
      [['prompt', 'args-prompt', '{"city":5}'], 'prompt "args-prompt" wants "city" as a string (prompts take text), got 5'],
    ])('checks arguments against what the server lists before sending, a usage error naming what is wrong: %j', async (args, message) => {
      const run = await rxmcp([...args, ...everything]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`rxmcp: ${message}\n`);
    });

    it('sends arguments unchecked with --no-check, for the server to judge', async () => {
      const run = await rxmcp(['call', 'get-sum', '{"a":"one","b":2}', '--no-check', ...everything]);
      // The server's own check answers: a tool error, exit 1.
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('Invalid arguments for tool get-sum');
    });

    it('renders a prompt with its arguments as key=value pairs, after JSON or alone', async () => {
      expect(await rxmcp(['prompt', 'args-prompt', 'city=Lyon', 'state=Rhône', ...everything])).toMatchObject({ code: 0, stdout: "user: What's weather in Lyon, Rhône?\n" });
      expect(await rxmcp(['prompt', 'args-prompt', '{"city":"Paris"}', 'state=IDF', ...everything])).toMatchObject({ code: 0, stdout: "user: What's weather in Paris, IDF?\n" });
      const refused = await rxmcp(['prompt', 'args-prompt', 'city=Lyon', 'oops', ...everything]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('prompt wants key=value after the prompt and its JSON arguments, got "oops"');
    });

    it('shows progress as plain lines on stderr when it is not a terminal, keeping --json stdout clean', async () => {
      const run = await rxmcp(['call', 'trigger-long-running-operation', '{"duration":0.3,"steps":3}', '--json', ...everything]);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('progress 1/3');
      expect(run.stderr).toContain('progress 3/3');
      expect(JSON.parse(run.stdout).content[0].text).toContain('Long running operation completed');
    });
  });

  describe('against the SDK v2 fixture (stdio, modern)', () => {
    it('describes it in the modern era, and reads the tool list', async () => {
      expect(JSON.parse((await rxmcp(['describe', '--json', ...modern])).stdout)).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
      expect((await rxmcp(['tools', ...modern])).stdout).toMatch(/^echo\s+Echoes its text back$/m);
    });

    it('exits 1 when the tool reports an error, and prints what it said', async () => {
      expect(await rxmcp(['call', 'fail', ...modern])).toMatchObject({ code: 1, stdout: 'the tool broke on purpose\n' });
    });

    it('reads tool arguments from stdin with -', async () => {
      expect((await rxmcp(['call', 'add', '-', ...modern], { input: '{"a":1,"b":2}' })).stdout).toBe('3\n{\n  "sum": 3\n}\n');
    });

    it('says where JSON from stdin breaks, in one line, and sends nothing', async () => {
      const run = await rxmcp(['call', 'add', '-', ...modern], { input: '{\n  "a": 1,\n  "b": 2,\n}\n' });
      expect(run).toEqual({ code: 2, stdout: '', stderr: 'rxmcp: the arguments on stdin are not valid JSON: at line 4, column 1 (character 23): expected a key in double quotes, found "}"\n' });
    });

    it('declines a question when stdin is not a terminal, saying so, and with --no-input', async () => {
      const run = await rxmcp(['call', 'deploy', '{"env":"prod"}', ...modern]);
      expect(run).toMatchObject({ code: 0, stdout: 'not deployed: decline\n' });
      expect(run.stderr).toContain('declined a question from the server (stdin is not a terminal): Deploy to prod?');
      expect((await rxmcp(['--no-input', 'call', 'deploy', '{"env":"prod"}', ...modern])).stdout).toBe('not deployed: decline\n');
    });

    it('prints log messages with --log-level', async () => {
      const run = await rxmcp(['--log-level', 'info', 'call', 'count', '{"steps":1}', ...modern]);
      expect(run.stderr).toContain('[info] counter: step 1');
    });

    it('cancels a call on Ctrl-C (the server sees it) and exits 130', async () => {
      const child = spawn(process.execPath, [bin, '--verbose', 'call', 'sleep', '{"ms":20000}', ...modern], { cwd: root });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stdin.end();
      await eventually(() => stderr.includes('server: started sleep'), 10000);
      child.kill('SIGINT');
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(code).toBe(130);
      expect(stderr).toMatch(/server: cancelled \d+/);
    });

    it.each([
      ['SIGTERM', 143],
      ['SIGHUP', 129],
    ] as const)('on %s, cancels the call, closes the server and every process under it, and exits %i', async (signal, exitCode) => {
      const child = spawn(process.execPath, [bin, '--verbose', 'call', 'sleep', '{"ms":20000}', ...modern], { cwd: root });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stdin.end();
      await eventually(() => stderr.includes('server: started sleep'), 10000);
      const tree = processTree(child.pid as number);
      expect(tree.length).toBeGreaterThan(1);
      child.kill(signal);
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(code).toBe(exitCode);
      expect(stderr).toMatch(/server: cancelled \d+/);
      await eventually(() => tree.every(hasEnded), 10000);
    });

    it('exits 3 with the server\'s last words when it dies', async () => {
      const crash = fixture('crash-server.mjs');
      const run = await rxmcp(['tools', '--', crash.command, ...crash.args]);
      expect(run.code).toBe(3);
      expect(run.stderr).toContain('the server exited with code 3');
      expect(run.stderr).toContain('missing API key CRASH_TOKEN');
    });
  });

  describe('given a command that is not an MCP server', () => {
    it.each([
      [['echo', 'hello'], 'rxmcp: the server exited with code 0 without sending an MCP message; it wrote on stdout: "hello"'],
      [['node', '-e', 'process.stdout.write("\\x1b]0;pwned\\x07hi\\n"); console.error("usage: thing FILE"); process.exit(64)'],
        'rxmcp: the server exited with code 64 without sending an MCP message; it wrote on stdout: "\\u001b]0;pwned\\u0007hi"; its last words: "usage: thing FILE"'],
      [['node', '-e', 'console.log("listening on 3000"); setInterval(() => {}, 1000)'],
        'rxmcp: the server wrote a line on stdout that is not MCP and no MCP message within 10000 ms (is it an MCP server?); it wrote on stdout: "listening on 3000"'],
      [['true'], 'rxmcp: the server exited with code 0 without sending an MCP message'],
      [['rxmcp-no-such-command'], 'rxmcp: cannot start "rxmcp-no-such-command": spawn rxmcp-no-such-command ENOENT'],
    ])('fails with exit 3 in one line naming what it wrote: %j', async (command, line) => {
      const words = command[0] === 'node' ? [process.execPath, ...command.slice(1)] : command;
      const run = await rxmcp(['tools', '--', ...words]);
      expect(run).toEqual({ code: 3, stdout: '', stderr: `${line}\n` });
    });
  });

  describe('over Streamable HTTP', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startHttpServer('http-server.mjs');
    });
    afterAll(() => server.stop());

    it('describes and calls', async () => {
      expect(JSON.parse((await rxmcp(['--url', server.url, 'describe', '--json'])).stdout)).toMatchObject({ era: 'modern' });
      expect((await rxmcp(['--url', server.url, '--header', 'X-Test: 1', 'call', 'echo', '--arg', 'text=over http'])).stdout).toBe('over http\n');
    });

    it('listens until interrupted, printing list changes', async () => {
      const child = spawn(process.execPath, [bin, '--url', server.url, '--json', 'listen'], { cwd: root });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      await eventually(() => stderr.includes('listening'), 10000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const other = McpClient.connectHttp({ url: server.url });
      await firstValueFrom(other.callTool('announce'));
      await other.close();
      await eventually(() => stdout.includes('notifications/tools/list_changed'), 10000);
      child.kill('SIGINT');
      expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    });

    it('talks to a legacy-only server the same way, and ends its session', async () => {
      const legacy = await startHttpServer('legacy-http-server.mjs');
      try {
        expect(JSON.parse((await rxmcp(['--url', legacy.url, 'describe', '--json'])).stdout)).toMatchObject({ era: 'legacy' });
        expect((await rxmcp(['--url', legacy.url, 'call', 'echo', '--arg', 'text=over legacy http'])).stdout).toBe('over legacy http\n');
        await eventually(() => legacy.stderr.filter((line) => line.startsWith('deleted ')).length === 2);
      } finally {
        await legacy.stop();
      }
    });

    it('exits 3 with a one-line reason when nothing listens there', async () => {
      const run = await rxmcp(['--url', 'http://127.0.0.1:9/mcp', 'tools']);
      expect(run.code).toBe(3);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain('http://127.0.0.1:9/mcp');
    });
  });

  describe('in a real terminal', () => {
    const tmux = (...args: string[]): string => execFileSync('tmux', args, { encoding: 'utf8' });

    it('asks a server\'s question as a form and sends the answers', async () => {
      const session = `rxmcp-${process.pid}`;
      const command = [process.execPath, bin, 'call', 'deploy', `'{"env":"prod"}'`, '--', ...modern.slice(1)].join(' ');
      tmux('new-session', '-d', '-s', session, '-x', '120', '-y', '20', `${command}; echo EXIT=$?; sleep 30`);
      const screen = () => tmux('capture-pane', '-t', session, '-p');
      try {
        await eventually(() => screen().includes('confirm * (y/n):'), 10000);
        expect(screen()).toContain('Deploy to prod?');
        tmux('send-keys', '-t', session, 'maybe', 'Enter');
        await eventually(() => screen().includes('answer y or n'), 5000);
        tmux('send-keys', '-t', session, 'y', 'Enter');
        await eventually(() => screen().includes('Send these answers?'), 5000);
        tmux('send-keys', '-t', session, '', 'Enter');
        await eventually(() => screen().includes('EXIT=0'), 10000);
        expect(screen()).toContain('deployed to prod');
      } finally {
        tmux('kill-session', '-t', session);
      }
    });
  });
});
