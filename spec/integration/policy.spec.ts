import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { type LlmToolCall, McpClient, Policy, type PolicyQuestion, Registry } from '../../src/index.js';
import { modernServer } from '../support/servers.js';

const filesystem = (root: string) => ({
  command: process.execPath,
  args: [join(__dirname, '..', '..', 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), root],
});
const call = (id: string, name: string, args: object): LlmToolCall => ({ id, function: { name, arguments: JSON.stringify(args) } });

describe('a Policy over server-filesystem behind a Registry', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'rxmcp-policy-')));
  mkdirSync(join(root, 'scratch'));
  writeFileSync(join(root, 'notes.txt'), 'keep me');
  // Trusted, so its readOnlyHint tools pass the default rules' read allow.
  const fs = McpClient.connectStdio({ ...filesystem(root), trustAnnotations: true });
  const registry = new Registry().add(fs, { prefix: 'fs' });
  const questions: PolicyQuestion[] = [];
  const answers: unknown[] = [];
  const policy = new Policy({
    provider: registry,
    rules: [
      ...Policy.defaultRules(),
      { tool: 'fs_write_file', decision: 'allow', under: 'scratch' },
      { tool: 'fs_move_file', decision: 'deny', note: 'nothing moves here' },
    ],
    roots: { fs: root },
    onAsk: (question) => (questions.push(question), answers.shift() ?? { action: 'deny-once' }),
  });
  afterAll(async () => {
    await fs.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('passes reads, annotated read-only by the server', async () => {
    const [read] = await policy.executeToolCalls([call('1', 'fs_read_text_file', { path: join(root, 'notes.txt') })]);
    expect(read).toMatchObject({ is_error: false, content: 'keep me' });
    expect(questions).toEqual([]);
  });

  it('passes a write inside the allowed directory, and it lands on disk', async () => {
    const [written] = await policy.executeToolCalls([call('1', 'fs_write_file', { path: join(root, 'scratch/a.txt'), content: 'A' })]);
    expect(written?.is_error).toBe(false);
    expect(readFileSync(join(root, 'scratch/a.txt'), 'utf8')).toBe('A');
  });

  it('asks about a write elsewhere; refused, nothing is written', async () => {
    questions.length = 0;
    const [refused] = await policy.executeToolCalls([call('1', 'fs_write_file', { path: join(root, 'outside.txt'), content: 'B' })]);
    expect(refused).toMatchObject({ is_error: true, content: 'Denied by the user' });
    expect(questions).toEqual([expect.objectContaining({ kind: 'permission', tool: 'fs_write_file', suggestion: root, locations: [join(root, 'outside.txt')] })]);
    expect(existsSync(join(root, 'outside.txt'))).toBe(false);
  });

  it('never lets a denied call reach the server, and hides the tool', async () => {
    const [moved] = await policy.executeToolCalls([call('1', 'fs_move_file', { source: join(root, 'notes.txt'), destination: join(root, 'moved.txt') })]);
    expect(moved).toMatchObject({ is_error: true, content: 'Denied by policy: nothing moves here' });
    expect(existsSync(join(root, 'notes.txt'))).toBe(true);
    expect(existsSync(join(root, 'moved.txt'))).toBe(false);
    expect((await policy.toolsForLlm()).map((t) => t.function.name)).not.toContain('fs_move_file');
  });

  it('lets an always-allow grant cover the next call of the same batch', async () => {
    questions.length = 0;
    mkdirSync(join(root, 'docs'));
    answers.push({ action: 'always-allow' });
    const results = await policy.executeToolCalls([
      call('1', 'fs_write_file', { path: join(root, 'docs/one.md'), content: '1' }),
      call('2', 'fs_write_file', { path: join(root, 'docs/two.md'), content: '2' }),
    ]);
    expect(results.map((r) => r.is_error)).toEqual([false, false]);
    expect(questions).toHaveLength(1);
    // The grant holds for this definition of the tool only (see Pins: grants lapse with the definition).
    expect(policy.grants).toEqual([{ tool: 'fs_write_file', under: join(root, 'docs'), decision: 'allow', fingerprint: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) }]);
    expect(readFileSync(join(root, 'docs/two.md'), 'utf8')).toBe('2');
  });
});

describe('a real elicitation answered through elicitHook', () => {
  it('waits its turn behind a permission question asked at the same time', async () => {
    const order: string[] = [];
    let open = 0;
    let most = 0;
    let policy: Policy | undefined;
    const mcp = McpClient.connectStdio({ ...modernServer, onElicit: (request) => (policy as Policy).elicitHook(request) });
    policy = new Policy({
      provider: mcp,
      onAsk: async (question) => {
        most = Math.max(most, ++open);
        order.push(question.kind === 'permission' ? `permission ${question.tool}` : `elicitation ${String(question.params.message)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        open--;
        return question.kind === 'permission' ? { action: 'allow-once' } : { action: 'accept', content: { confirm: true } };
      },
    });
    try {
      await firstValueFrom(mcp.describe());
      const [permitted, deployed] = await Promise.all([
        policy.executeToolCalls([call('1', 'echo', { text: 'after a question' })]),
        firstValueFrom(mcp.callTool('deploy', { env: 'staging' })),
      ]);
      expect(permitted[0]).toMatchObject({ is_error: false, content: 'after a question' });
      expect(deployed.content[0]?.text).toBe('deployed to staging');
      expect(most).toBe(1);
      expect(order.sort()).toEqual(['elicitation Deploy to staging?', 'permission echo']);
    } finally {
      await mcp.close();
    }
  });
});
