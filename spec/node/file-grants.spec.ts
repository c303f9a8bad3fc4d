import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { type LlmToolCall, McpClientError, McpStoreError, Policy, type PolicyQuestion, type PolicyRule, Toolkit } from 'rxmcp';
import { FileGrants } from 'rxmcp/node';

// FileGrants is the grant book of `rxmcp serve --policy` with a grantsFile:
// a Policy's "always" kept in a file, shared by every process that names it.

const WRITER = join(__dirname, '..', 'fixtures', 'grants-writer.ts');
const posixOnly = process.platform === 'win32' ? it.skip : it;
const call = (id: string, path: string): LlmToolCall => ({ id, function: { name: 'fs_write', arguments: { path, text: 'x' } } });

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'rxmcp-grants-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** A Policy over a real in-process tool, asking through `answer` and counting the questions. */
function policyWith(grantsStore: FileGrants, answer: (question: PolicyQuestion) => unknown = () => ({ action: 'deny-once' })) {
  const written: string[] = [];
  const tools = new Toolkit({ name: 'fs' }).tool('fs_write', { description: 'Writes a file', input: z.object({ path: z.string(), text: z.string() }) }, ({ path }) => {
    written.push(path);
    return { content: [{ type: 'text', text: 'written' }] };
  });
  const asked: PolicyQuestion[] = [];
  const policy = new Policy({
    provider: tools,
    rules: Policy.defaultRules(),
    grantsStore,
    onAsk: (question) => {
      asked.push(question);
      return answer(question);
    },
  });
  return { policy, asked, written };
}

/** Runs grants-writer.ts in a process of its own. */
function otherProcess(path: string, grants: PolicyRule[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER], { env: { ...process.env, GRANTS_PATH: path, GRANTS: JSON.stringify(grants) }, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('exit', (code) => resolve(code));
  });
}

describe('FileGrants', () => {
  it("keeps an 'always allow' across runs: a new Policy over the same file allows without asking", async () => {
    const path = join(folder, 'grants.json');
    const first = policyWith(new FileGrants({ path }), () => ({ action: 'always-allow' }));
    const [answer] = await first.policy.executeToolCalls([call('1', '/srv/work/a.txt')]);
    expect(answer).toMatchObject({ is_error: false, content: 'written' });
    expect(first.asked).toHaveLength(1);

    const second = policyWith(new FileGrants({ path }));
    const [again] = await second.policy.executeToolCalls([call('2', '/srv/work/b.txt')]);
    expect(again).toMatchObject({ is_error: false, content: 'written' });
    expect(second.asked).toEqual([]);
    // The grant is the suggestion: the folder, not the whole tool.
    const [outside] = await second.policy.executeToolCalls([call('3', '/etc/passwd')]);
    expect(outside?.is_error).toBe(true);
    expect(second.asked).toHaveLength(1);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ format: 'rxmcp-grants', version: 1, grants: [{ tool: 'fs_write', under: '/srv/work', decision: 'allow' }] });
  });

  posixOnly('writes the file with mode 0600, by rename, leaving no temporary or lock file behind', async () => {
    const path = join(folder, 'nested', 'grants.json');
    const book = new FileGrants({ path });
    await book.add([{ tool: 'a', decision: 'allow' }]);
    await book.add([{ tool: 'b', decision: 'deny' }]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(folder, 'nested'))).toEqual(['grants.json']);
    expect(await book.current()).toEqual([
      { tool: 'a', decision: 'allow' },
      { tool: 'b', decision: 'deny' },
    ]);
  });

  it('lets a grant added by another process bind this one on its next decision', async () => {
    const path = join(folder, 'grants.json');
    const here = policyWith(new FileGrants({ path }));
    const [before] = await here.policy.executeToolCalls([call('1', '/srv/a.txt')]);
    expect(before?.is_error).toBe(true);
    expect(here.asked).toHaveLength(1);

    expect(await otherProcess(path, [{ tool: 'fs_write', decision: 'allow', under: '/srv' }])).toBe(0);
    const [after] = await here.policy.executeToolCalls([call('2', '/srv/a.txt')]);
    expect(after).toMatchObject({ is_error: false, content: 'written' });
    expect(here.asked).toHaveLength(1);
  }, 30_000);

  it('loses no grant when two processes add at once', async () => {
    const path = join(folder, 'grants.json');
    const grants = (who: string) => Array.from({ length: 12 }, (_, n): PolicyRule => ({ tool: `${who}_${n}`, decision: 'allow' }));
    expect(await Promise.all([otherProcess(path, grants('p')), otherProcess(path, grants('q'))])).toEqual([0, 0]);
    const tools = (await new FileGrants({ path }).current()).map((grant) => grant.tool).sort();
    expect(tools).toEqual([...grants('p'), ...grants('q')].map((grant) => grant.tool).sort());
    expect(existsSync(`${path}.lock`)).toBe(false);
  }, 30_000);

  it('refuses an invalid grant with McpClientError and writes nothing', async () => {
    const path = join(folder, 'grants.json');
    const book = new FileGrants({ path });
    await expect(book.add([{ tool: 'a', decision: 'allow' }, { tool: 'b', decision: 'maybe' } as unknown as PolicyRule])).rejects.toThrow(McpClientError);
    expect(existsSync(path)).toBe(false);
    expect(() => new FileGrants({ path, extra: 1 } as never)).toThrow('unknown option: extra');
    expect(() => new FileGrants({ path: '' })).toThrow(McpClientError);
  });

  describe('fails closed on a file it cannot read', () => {
    const hostile: Array<[string, string, RegExp]> = [
      ['not JSON', '{"format": "rxmcp-grants", ', /is not JSON/],
      ['another format', JSON.stringify({ format: 'something-else', grants: [] }), /is not an rxmcp grants file/],
      ['a later version', JSON.stringify({ format: 'rxmcp-grants', version: 2, grants: [] }), /version 2/],
      ['a grant that asks', JSON.stringify({ format: 'rxmcp-grants', version: 1, grants: [{ tool: '*', decision: 'ask' }] }), /grants\[0\]/],
      ['a grant with a __proto__ key', `{"format":"rxmcp-grants","version":1,"grants":[{"tool":"*","decision":"allow","__proto__":{"under":"/"}}]}`, /grants\[0\]/],
      ['a grant nested 100000 deep', `{"format":"rxmcp-grants","version":1,"grants":[{"tool":"*","decision":"allow","args":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}`, /grants\[0\]/],
      ['grants that are not a list', JSON.stringify({ format: 'rxmcp-grants', version: 1, grants: { 0: { tool: '*', decision: 'allow' } } }), /has no list of grants/],
    ];
    it.each(hostile)('%s: current throws McpStoreError, the Policy asks, and an add leaves the file as it was', async (_name, text, reason) => {
      const path = join(folder, 'grants.json');
      writeFileSync(path, text, { mode: 0o600 });
      const book = new FileGrants({ path });
      const error = await book.current().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpStoreError);
      expect((error as Error).message).toMatch(reason);
      expect((error as Error).message).toContain('FileGrants');
      expect((error as Error).message.length).toBeLessThan(600);

      const { policy, asked, written } = policyWith(book, () => ({ action: 'always-allow' }));
      const [answer] = await policy.executeToolCalls([call('1', '/srv/a.txt')]);
      // Asked, and allowed once: the answer could not be kept, so it decided this call alone.
      expect(asked).toHaveLength(1);
      expect(answer?.is_error).toBe(false);
      expect(written).toEqual(['/srv/a.txt']);
      await expect(book.add([{ tool: 'x', decision: 'allow' }])).rejects.toThrow(McpStoreError);
      expect(readFileSync(path, 'utf8')).toBe(text);
    });

    it('a file larger than 4 MiB', async () => {
      const path = join(folder, 'grants.json');
      writeFileSync(path, JSON.stringify({ format: 'rxmcp-grants', version: 1, grants: [{ tool: '*', decision: 'allow', note: 'x'.repeat(5 * 1024 * 1024) }] }), { mode: 0o600 });
      await expect(new FileGrants({ path }).current()).rejects.toThrow(/larger than/);
    });

    posixOnly('a file others may write to: whoever can write the book can grant themselves anything', async () => {
      const path = join(folder, 'grants.json');
      writeFileSync(path, JSON.stringify({ format: 'rxmcp-grants', version: 1, grants: [{ tool: '*', decision: 'allow' }] }));
      chmodSync(path, 0o666);
      const { policy, asked } = policyWith(new FileGrants({ path }));
      const [answer] = await policy.executeToolCalls([call('1', '/srv/a.txt')]);
      expect(answer?.is_error).toBe(true);
      expect(asked).toHaveLength(1);
      await expect(new FileGrants({ path }).current()).rejects.toThrow(/may be written by others/);
    });
  });
});
