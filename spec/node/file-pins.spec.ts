import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpClient, McpStoreError, Pins, Registry, type Pin } from '../../src/index.js';
import { FilePins } from '../../src/node/index.js';
import { fixture } from '../support/servers.js';

const AGENT = join(__dirname, '..', 'fixtures', 'pins-agent.ts');

/** Runs pins-agent.ts in a process of its own against a rug server started with `rugArgs`. */
function agent(path: string, rugArgs: string[] = []): Promise<{ shown: string[]; warnings: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', AGENT], { env: { ...process.env, PINS_PATH: path, RUG_ARGS: JSON.stringify(rugArgs) }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as { shown: string[]; warnings: string[] }) : reject(new Error(`agent exited ${code}`))));
  });
}

describe('FilePins', () => {
  let dir = '';
  const open: McpClient[] = [];
  const pinsOver = (path: string, onWarn?: (line: string) => void) => {
    const client = McpClient.connectStdio({ ...fixture('rug-server.mjs') });
    open.push(client);
    const registry = new Registry();
    registry.add(client, { prefix: 'docs' });
    return new Pins({ provider: registry, store: new FilePins({ path }), ...(onWarn ? { onWarn } : {}) });
  };
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rxmcp-pins-'));
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the first definitions across processes: a later process whose server changed a tool hides it', async () => {
    const path = join(dir, 'pins.json');
    expect((await agent(path)).shown).toContain('docs_search_docs');
    const later = await agent(path, ['--variant', '1']);
    expect(later.shown).toEqual(['docs_echo', 'docs_rug', 'docs_rug-back']);
    const file = JSON.parse(await readFile(path, 'utf8')) as { format: string; pins: Pin[] };
    expect(file.format).toBe('rxmcp-pins');
    expect(file.pins.find((pin) => pin.tool === 'docs_search_docs')?.definition.description).toBe('Searches the docs');
  });

  it('writes the file, folder and all, with mode 0600', async () => {
    const path = join(dir, 'sub', 'pins.json');
    await pinsOver(path).toolsForLlm();
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((JSON.parse(await readFile(path, 'utf8')) as { pins: Pin[] }).pins).toHaveLength(4);
  });

  it('fails closed on a truncated file: every tool hidden, the error named, the file left as it was', async () => {
    const path = join(dir, 'pins.json');
    await agent(path);
    const whole = await readFile(path, 'utf8');
    await writeFile(path, whole.slice(0, whole.length / 2), { mode: 0o600 });
    const warnings: string[] = [];
    const pins = pinsOver(path, (line) => warnings.push(line));
    expect(await pins.toolsForLlm()).toEqual([]);
    expect(warnings[0]).toMatch(/the pins could not be read \(FilePins .*pins\.json.*the file is not JSON\)/);
    expect((await pins.executeToolCalls([{ id: 'c', function: { name: 'docs_echo', arguments: '{"text":"x"}' } }]))[0]).toMatchObject({ is_error: true });
    expect(await readFile(path, 'utf8')).toBe(whole.slice(0, whole.length / 2));
    await expect(new FilePins({ path }).read(['docs_echo'])).rejects.toBeInstanceOf(McpStoreError);
  });

  it('hides a tool whose pin was edited by hand, without asking anyone', async () => {
    const path = join(dir, 'pins.json');
    await agent(path);
    const file = JSON.parse(await readFile(path, 'utf8')) as { pins: Pin[] };
    const pin = file.pins.find((each) => each.tool === 'docs_search_docs') as Pin;
    pin.fingerprint = `sha256:${'0'.repeat(64)}`;
    await writeFile(path, JSON.stringify(file), { mode: 0o600 });
    const later = await agent(path);
    expect(later.shown).not.toContain('docs_search_docs');
    expect(later.warnings).toEqual([expect.stringContaining('"docs_search_docs" is hidden: its pin does not match its own definition (edited by hand?)')]);
  });

  it('refuses a file others may write to, and one holding two pins of one tool', async () => {
    const path = join(dir, 'pins.json');
    await agent(path);
    if (process.platform !== 'win32') {
      await chmod(path, 0o666);
      await expect(new FilePins({ path }).read([])).rejects.toThrow('may be written by others');
      await chmod(path, 0o600);
    }
    const file = JSON.parse(await readFile(path, 'utf8')) as { pins: Pin[] };
    file.pins.push(file.pins[0] as Pin);
    await writeFile(path, JSON.stringify(file), { mode: 0o600 });
    await expect(new FilePins({ path }).read([])).rejects.toThrow('holds two pins of "docs_search_docs"');
  });

  // Each check stats the file and reads it again only when it changed: a file
  // old enough is not read at every call, and none of these changes may be missed.
  it('sees every change of a file it read at an earlier check: an edit in place that keeps its size and time, a rename over it, a mode others may write', async () => {
    const path = join(dir, 'pins.json');
    const first: Pin = { tool: 'docs_echo', fingerprint: `sha256:${'a'.repeat(64)}`, definition: { name: 'echo' }, pinnedAt: '2026-01-01T00:00:00.000Z' };
    const document = (pin: Pin): string => JSON.stringify({ format: 'rxmcp-pins', version: 1, pins: [pin] });
    await writeFile(path, document(first), { mode: 0o600 });
    // Old enough (by its ctime) for a read of it to be kept.
    await new Promise((resolve) => setTimeout(resolve, 3_200));
    const pins = new FilePins({ path });
    expect((await pins.read(['docs_echo'])).get('docs_echo')?.fingerprint).toBe(first.fingerprint);
    expect((await pins.read(['docs_echo'])).get('docs_echo')?.fingerprint).toBe(first.fingerprint);

    const before = await stat(path);
    const edited: Pin = { ...first, fingerprint: `sha256:${'b'.repeat(64)}` };
    await writeFile(path, document(edited));
    await utimes(path, before.atime, before.mtime);
    expect((await stat(path)).size).toBe(before.size);
    expect((await pins.read(['docs_echo'])).get('docs_echo')?.fingerprint).toBe(edited.fingerprint);

    const renamed: Pin = { ...first, fingerprint: `sha256:${'c'.repeat(64)}` };
    await writeFile(`${path}.new`, document(renamed), { mode: 0o600 });
    await rename(`${path}.new`, path);
    expect((await pins.read(['docs_echo'])).get('docs_echo')?.fingerprint).toBe(renamed.fingerprint);

    if (process.platform !== 'win32') {
      await chmod(path, 0o666);
      await expect(pins.read(['docs_echo'])).rejects.toThrow('may be written by others');
    }
  }, 15_000);
});
