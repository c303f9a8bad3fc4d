import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type ChatMessage, startFakeOpenAI } from '../support/fake-openai-server.js';

const root = join(__dirname, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const run = (demo: string, ...args: string[]): string => execFileSync(tsx, [join(root, 'demos', demo), ...args], { cwd: root, encoding: 'utf8', timeout: 30000 });
/** The environment without any OpenAI settings of the machine running the tests. */
const withoutOpenAI = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPENAI_')));

/** What a model behind the fake endpoint does: the sum, then the product of what the sum tool said, then the answer. */
function fakeModel(messages: ChatMessage[]): ChatMessage {
  const answers = messages.filter((message) => message.role === 'tool');
  const call = (id: string, name: string, args: object) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
  if (answers.length === 0) return { role: 'assistant', content: null, tool_calls: [call('call_1', 'everything_get-sum', { a: 2, b: 3 })] };
  if (answers.length === 1) {
    const sum = Number(/(\d+)\D*$/.exec(answers[0]?.content ?? '')?.[1]);
    return { role: 'assistant', content: 'Now the product.', tool_calls: [call('call_2', 'local_multiply', { a: sum, b: 4 })] };
  }
  return { role: 'assistant', content: `(2 + 3) × 4 = ${answers[1]?.content}.` };
}

describe('the demos a newcomer runs', () => {
  it('toolloop prints the same transcript every run, with the answer', () => {
    const first = run('toolloop.ts');
    expect(run('toolloop.ts')).toBe(first);
    expect(first).toContain('  ← call_1: The sum of 2 and 3 is 5.');
    expect(first).toContain('  ← call_2: 20');
    expect(first).toContain('assistant: (2 + 3) × 4 = 20.');
  });

  it('toolloop --openai runs the same loop against an OpenAI-compatible endpoint', async () => {
    const endpoint = await startFakeOpenAI({ apiKey: 'sk-test', reply: fakeModel });
    try {
      const env = { ...withoutOpenAI(), OPENAI_BASE_URL: endpoint.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'fake-model' };
      const { stdout } = await promisify(execFile)(tsx, [join(root, 'demos', 'toolloop.ts'), '--openai'], { cwd: root, encoding: 'utf8', timeout: 30000, env });
      expect(stdout).toContain('  ← call_1: The sum of 2 and 3 is 5.');
      expect(stdout).toContain('  ← call_2: 20');
      expect(stdout).toContain('assistant: (2 + 3) × 4 = 20.');
      expect(endpoint.requests).toHaveLength(3);
      const [first, second] = endpoint.requests;
      expect(first?.body.model).toBe('fake-model');
      expect(first?.body.tools?.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(['everything_get-sum', 'local_multiply']));
      // The answer went back as a tool message of exactly the fields the API takes (the fake refuses any other).
      expect(second?.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'The sum of 2 and 3 is 5.' });
    } finally {
      await endpoint.close();
    }
  });

  it('toolloop --openai without an endpoint says what to set', () => {
    expect(() => execFileSync(tsx, [join(root, 'demos', 'toolloop.ts'), '--openai'], { cwd: root, encoding: 'utf8', timeout: 30000, env: withoutOpenAI(), stdio: 'pipe' })).toThrow(
      expect.objectContaining({ status: 2, stderr: expect.stringContaining('set OPENAI_API_KEY') }),
    );
  });

  it('quick-start describes the bundled servers of both eras', () => {
    expect(run('quick-start.ts')).toContain('speaks 2025-11-25 (legacy era)');
    expect(run('quick-start.ts', 'modern')).toContain('speaks 2026-07-28 (modern era)');
  });

  it('input-hooks answers a server\'s questions without a terminal', () => {
    const output = execFileSync(tsx, [join(root, 'demos', 'input-hooks.ts')], { cwd: root, encoding: 'utf8', timeout: 30000, input: '' });
    expect(output).toContain('deploy → deployed to prod');
    expect(output).toContain('nag → gave up: tools/call still asking after 3 rounds');
  });
});
