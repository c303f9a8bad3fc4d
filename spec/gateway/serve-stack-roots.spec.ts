import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import { normalizeServerConfig } from '../../src/config/normalize-server-config.js';
import { parsePolicyFile } from '../../src/providers/policy/policy-file.js';
import { buildServeStack, type ServeStack } from '../../src/gateway/serve-stack.js';

// A policy file's `roots` are written under server names ("fs"). Another
// server whose name merely begins with that one ("fsx") must not have its
// relative paths judged as if they were inside the first server's folder.

const root = join(__dirname, '..', '..');
let work: string;
let other: string;
let stack: ServeStack;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'rxmcp-roots-work-'));
  other = mkdtempSync(join(tmpdir(), 'rxmcp-roots-other-'));
  const fsServer = (folder: string) => ({ command: process.execPath, args: [join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), folder], cwd: folder });
  const config = normalizeServerConfig({ mcpServers: { fs: fsServer(work), fsx: fsServer(other) } });
  const policy = parsePolicyFile(
    JSON.stringify({
      rules: [
        { tool: '*', decision: 'allow', under: work, note: 'files only in the work folder' },
      ],
      roots: { fs: work },
    }),
    'policy.json',
  );
  stack = await buildServeStack({ config, policy, tokenStore: new MemoryTokenStore(), onWarn: () => undefined });
}, 30_000);

afterAll(async () => {
  await stack?.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(other, { recursive: true, force: true });
});

it("judges a relative path of server fsx as unknown, not as inside server fs's root", async () => {
  const [answer] = await stack.policy.executeToolCalls([{ id: 'c1', type: 'function', function: { name: 'fsx_write_file', arguments: { path: 'escaped.txt', content: 'x' } } }]);
  expect(answer?.is_error).toBe(true);
  expect(existsSync(join(other, 'escaped.txt'))).toBe(false);
  // The server the root was written for still has its relative paths read against it.
  const [own] = await stack.policy.executeToolCalls([{ id: 'c2', type: 'function', function: { name: 'fs_write_file', arguments: { path: 'kept.txt', content: 'x' } } }]);
  expect(own?.is_error).toBe(false);
  expect(existsSync(join(work, 'kept.txt'))).toBe(true);
}, 30_000);
