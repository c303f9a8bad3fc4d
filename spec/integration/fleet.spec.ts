import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LeaseTable,
  Leases,
  type LlmToolCall,
  McpClient,
  Policy,
  type PolicyQuestion,
  Registry,
  Reasons,
  UnknownKeys,
  type UnknownKeysWarning,
} from '../../src/index.js';
import { parityServer } from '../support/parity.js';

const call = (id: string, name: string, args: object): LlmToolCall => ({ id, function: { name, arguments: JSON.stringify(args) } });
const filesystem = (root: string) => ({
  command: process.execPath,
  args: [join(__dirname, '..', '..', 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), root],
});

describe('two agents editing one file of server-filesystem through Leases', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'rxmcp-leases-')));
  const file = join(root, 'shared.md');
  writeFileSync(file, 'start\n');
  const fs = McpClient.connectStdio(filesystem(root));
  const registry = new Registry().add(fs, { prefix: 'fs' });
  const table = new LeaseTable();
  const agent = (agentId: string) => new Leases({ inner: registry, table, agentId, roots: { fs: root, lock: root }, concurrent: () => 2 });
  const [alice, bob] = [agent('alice'), agent('bob')];
  afterAll(async () => {
    await fs.close();
    rmSync(root, { recursive: true, force: true });
  });

  // Read, think, write back: the window a lease closes.
  async function append(who: Leases, id: string, line: string): Promise<void> {
    const [read] = await who.executeToolCalls([call(`${id}-read`, 'fs_read_text_file', { path: file })]);
    const [written] = await who.executeToolCalls([call(`${id}-write`, 'fs_write_file', { path: file, content: `${read?.content}${line}\n` })]);
    expect(written?.is_error).toBe(false);
  }

  it('refuses an unleased write while two agents are live', async () => {
    const [refused] = await alice.executeToolCalls([call('1', 'fs_write_file', { path: file, content: 'clobbered' })]);
    expect(refused?.content).toMatch(/call lock_acquire with .*shared\.md.* first/);
    expect(readFileSync(file, 'utf8')).toBe('start\n');
  });

  it('makes the second agent wait, then apply its edit on top of the first', async () => {
    await alice.executeToolCalls([call('a1', 'lock_acquire', { paths: ['shared.md'] })]);
    const bobTurn = (async () => {
      const [granted] = await bob.executeToolCalls([call('b1', 'lock_acquire', { paths: ['shared.md'], wait: 10 })]);
      expect(granted?.is_error).toBe(false);
      await append(bob, 'b', 'bob');
      await bob.executeToolCalls([call('b2', 'lock_release', {})]);
    })();
    await append(alice, 'a', 'alice');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await alice.executeToolCalls([call('a2', 'lock_release', { paths: ['shared.md'] })]);
    await bobTurn;
    expect(readFileSync(file, 'utf8')).toBe('start\nalice\nbob\n');
  }, 15000);

  it('frees a wedged holder\'s claim when it expires', async () => {
    await alice.executeToolCalls([call('a3', 'lock_acquire', { paths: ['shared.md'], ttl: 1 })]);
    const [granted] = await bob.executeToolCalls([call('b3', 'lock_acquire', { paths: ['shared.md'], wait: 5 })]);
    expect(granted).toMatchObject({ is_error: false });
    table.releaseAll();
  }, 10000);
});

describe('Policy( UnknownKeys( Reasons( Registry ) ) ) over an SDK server', () => {
  const server = McpClient.connectStdio(parityServer());
  const questions: PolicyQuestion[] = [];
  const warnings: UnknownKeysWarning[] = [];
  const policy = new Policy({
    provider: new UnknownKeys({ provider: new Reasons({ provider: new Registry().add(server, { prefix: 'par' }) }), onWarn: (w) => warnings.push(w) }),
    onAsk: (question) => (questions.push(question), { action: 'allow-once' }),
  });
  afterAll(() => server.close());

  it('shows the model a reason parameter, the human the reason, and the server nothing of it', async () => {
    const declared = (await policy.toolsForLlm()).find((tool) => tool.function.name === 'par_arguments');
    expect(Object.keys((declared?.function.parameters as { properties: object }).properties)).toEqual(['text', 'reason']);
    const [answer] = await policy.executeToolCalls([call('1', 'par_arguments', { text: 'hello', reason: 'the user asked for a greeting' })]);
    expect(answer).toMatchObject({ is_error: false, content: '{"text":"hello"}' });
    expect(questions[0]).toMatchObject({ kind: 'permission', tool: 'par_arguments', arguments: { text: 'hello', reason: 'the user asked for a greeting' } });
    expect(warnings).toEqual([]);
  });

  it('reports an undeclared argument once, and still passes it on', async () => {
    await policy.executeToolCalls([call('2', 'par_arguments', { text: 'x', colour: 'blue' })]);
    const [answer] = await policy.executeToolCalls([call('3', 'par_arguments', { text: 'y', colour: 'red' })]);
    expect(answer?.content).toBe('{"text":"y","colour":"red"}');
    expect(warnings).toEqual([{ tool: 'par_arguments', id: '2', unknownKeys: ['colour'], declaredKeys: ['text', 'reason'] }]);
  });
});
