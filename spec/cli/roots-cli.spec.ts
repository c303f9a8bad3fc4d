import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rxmcp } from '../support/cli.js';
import { fixture } from '../support/servers.js';

// --root at the command line: the SDK v2 fixture (2026-07-28) asks for the
// client's roots in an input round and answers with the URIs it was given.

const server = fixture('roots-server.mjs');
const command = ['--', server.command, ...server.args];
let folder: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'rxmcp-roots-'));
  mkdirSync(join(folder, 'alpha'));
});

afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe('rxmcp --root', () => {
  it('2026-07-28 client/roots, Listing Roots: offers each folder as the file:// URL of its absolute path', async () => {
    const run = await rxmcp(['call', 'show_roots', '--root', join(folder, 'alpha'), '--root', join(folder, 'alpha', '..'), ...command]);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').slice(0, 2)).toEqual([pathToFileURL(join(folder, 'alpha')).href, pathToFileURL(folder).href]);
  });

  it('declares no roots without it, so a server that needs them says so', async () => {
    const run = await rxmcp(['call', 'show_roots', ...command]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('-32021');
  });

  it('refuses a folder whose name holds a control character, before it starts the server', async () => {
    const run = await rxmcp(['call', 'show_roots', '--root', join(folder, 'bad\u001bname'), ...command]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/option roots: root 0 .* control character/);
    expect(run.stderr).not.toContain('\u001b');
  });
});
