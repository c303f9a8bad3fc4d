import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BehaviorSubject, firstValueFrom } from 'rxjs';
import { McpClient } from '../../src/index.js';
import type { Root } from '../../src/protocol/types.js';
import { fixture } from '../support/servers.js';

// Roots that change, seen by real servers: server-filesystem (2025-11-25)
// serves the folders its client's roots name, and re-reads them only on
// notifications/roots/list_changed; the 2026-07-28 fixture asks for roots in
// its tool's input round. Neither connection is restarted to see a change.

const root = join(__dirname, '..', '..');
// Started with no folder of its own: it serves exactly the client's roots.
const filesystem = { command: process.execPath, args: [join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')] };

let dirA: string;
let dirB: string;
const rootOf = (dir: string): Root => ({ uri: pathToFileURL(dir).href, name: dir });

beforeAll(() => {
  // realpath: the server reports folders resolved (macOS's /var is /private/var).
  dirA = realpathSync(mkdtempSync(join(tmpdir(), 'rxmcp-roots-a-')));
  dirB = realpathSync(mkdtempSync(join(tmpdir(), 'rxmcp-roots-b-')));
});

afterAll(() => {
  rmSync(dirA, { recursive: true, force: true });
  rmSync(dirB, { recursive: true, force: true });
});

const textOf = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((block) => block.text ?? '').join('\n');

/**
 * What server-filesystem says it may touch, asked until it says what
 * `wanted` accepts: it reads the roots it was told about on its own time,
 * after answering the notification. Bounded by attempts, not by time.
 */
async function allowedUntil(mcp: McpClient, wanted: (text: string) => boolean): Promise<string> {
  let text = '';
  for (let attempt = 0; attempt < 200; attempt += 1) {
    text = textOf(await firstValueFrom(mcp.callTool('list_allowed_directories')));
    if (wanted(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return text;
}

describe('2025-11-25 client/roots, Root List Changes (server-filesystem)', () => {
  it('a new list from the roots Observable reaches the server without reconnecting', async () => {
    const roots = new BehaviorSubject<Root[]>([rootOf(dirA)]);
    const mcp = McpClient.connectStdio({ ...filesystem, era: 'legacy', roots });
    try {
      const before = await allowedUntil(mcp, (text) => text.includes(dirA));
      expect(before).toContain(dirA);
      expect(before).not.toContain(dirB);
      roots.next([rootOf(dirB)]);
      const after = await allowedUntil(mcp, (text) => text.includes(dirB));
      expect(after).toContain(dirB);
      expect(after).not.toContain(dirA);
    } finally {
      await mcp.close();
    }
  }, 30_000);

  it('notifyRootsChanged with onListRoots reaches the server without reconnecting', async () => {
    let current = [rootOf(dirA)];
    const mcp = McpClient.connectStdio({ ...filesystem, era: 'legacy', onListRoots: () => ({ roots: current }) });
    try {
      expect(await allowedUntil(mcp, (text) => text.includes(dirA))).toContain(dirA);
      current = [rootOf(dirB)];
      mcp.notifyRootsChanged();
      const after = await allowedUntil(mcp, (text) => text.includes(dirB));
      expect(after).toContain(dirB);
      expect(after).not.toContain(dirA);
    } finally {
      await mcp.close();
    }
  }, 30_000);

  it('Security Considerations: a root from onListRoots that is not file:// never reaches the server', async () => {
    const warnings: string[] = [];
    const mcp = McpClient.connectStdio({
      ...filesystem,
      era: 'legacy',
      onWarn: (warning) => warnings.push(warning),
      // server-filesystem would take a bare path, or a smuggled one, as a folder to serve.
      onListRoots: () => ({ roots: [rootOf(dirA), { uri: dirB }, { uri: `file://${dirB}/../..` }] }),
    });
    try {
      const allowed = await allowedUntil(mcp, (text) => text.includes(dirA));
      expect(allowed).toContain(dirA);
      expect(allowed).not.toContain(dirB);
      expect(warnings.join('\n')).toContain('left out 2 root(s)');
    } finally {
      await mcp.close();
    }
  }, 30_000);
});

describe('2026-07-28 client/roots, Listing Roots (official SDK v2 fixture)', () => {
  it("the tool's roots question gets the latest list, with no notification to send", async () => {
    const roots = new BehaviorSubject<Root[]>([rootOf(dirA)]);
    const mcp = McpClient.connectStdio({ ...fixture('roots-server.mjs'), roots });
    try {
      expect((await firstValueFrom(mcp.describe())).era).toBe('modern');
      expect(textOf(await firstValueFrom(mcp.callTool('show_roots')))).toBe(pathToFileURL(dirA).href);
      roots.next([rootOf(dirB), rootOf(dirA)]);
      expect(textOf(await firstValueFrom(mcp.callTool('show_roots')))).toBe(`${pathToFileURL(dirB).href}\n${pathToFileURL(dirA).href}`);
    } finally {
      await mcp.close();
    }
  }, 30_000);
});
