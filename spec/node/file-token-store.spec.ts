import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpClientError } from 'rxmcp';
import { McpAuthError } from '../../src/errors/auth-errors.js';
import type { StoredTokens } from '../../src/auth/auth-options.js';
import { FileTokenStore } from '../../src/node/index.js';

const SERVER = 'https://tools.example.com/mcp';
const OTHER = 'https://other.example.com:8443/mcp';

function tokens(accessToken: string): StoredTokens {
  return { accessToken, refreshToken: `refresh-${accessToken}`, expiresAt: 1_900_000_000_000, scope: 'read write', issuer: 'https://auth.example.com', clientId: 'client-1' };
}

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'rxmcp-tokens-'));
}

/** The one token file in `directory`, after a store wrote it. */
function onlyFile(directory: string): string {
  const files = readdirSync(directory);
  expect(files).toHaveLength(1);
  return join(directory, files[0] as string);
}

const posixOnly = process.platform === 'win32' ? it.skip : it;
// Handing a directory to another user takes root.
const asRoot = process.platform !== 'win32' && process.getuid?.() === 0 ? it : it.skip;

describe('FileTokenStore', () => {
  it('gives back the tokens it was given, and nothing for a server it never saw', async () => {
    const store = new FileTokenStore({ directory: scratch() });
    await store.set(SERVER, tokens('a1'));
    expect(await store.get(SERVER)).toEqual(tokens('a1'));
    expect(await store.get(OTHER)).toBeUndefined();
    expect(await new FileTokenStore({ directory: store.directory }).get(SERVER)).toEqual(tokens('a1'));
  });

  it('forgets a server on clear, and clearing one it never saw is no error', async () => {
    const store = new FileTokenStore({ directory: scratch() });
    await store.set(SERVER, tokens('a1'));
    await store.clear(SERVER);
    expect(await store.get(SERVER)).toBeUndefined();
    expect(readdirSync(store.directory)).toEqual([]);
    await expect(store.clear(OTHER)).resolves.toBeUndefined();
  });

  posixOnly('creates its directory 0700 and its files 0600, whatever the umask', async () => {
    const directory = join(scratch(), 'nested', 'tokens');
    const previous = process.umask(0o022);
    try {
      const store = new FileTokenStore({ directory });
      await store.set(SERVER, tokens('a1'));
      await store.set(SERVER, tokens('a2'));
      expect(statSync(directory).mode & 0o777).toBe(0o700);
      expect(statSync(onlyFile(directory)).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(previous);
    }
  });

  posixOnly('narrows a directory that already exists to 0700, and a token file it reads to 0600', async () => {
    const directory = join(scratch(), 'tokens');
    mkdirSync(directory);
    chmodSync(directory, 0o777);
    const store = new FileTokenStore({ directory });
    await store.set(SERVER, tokens('a1'));
    expect(statSync(directory).mode & 0o777).toBe(0o700);

    chmodSync(directory, 0o755);
    chmodSync(onlyFile(directory), 0o644);
    expect(await store.get(SERVER)).toEqual(tokens('a1'));
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    expect(statSync(onlyFile(directory)).mode & 0o777).toBe(0o600);
  });

  asRoot('refuses a directory that belongs to another user, writing nothing there', async () => {
    const directory = join(scratch(), 'tokens');
    mkdirSync(directory, { mode: 0o700 });
    chownSync(directory, 4321, 4321);
    const store = new FileTokenStore({ directory });
    await expect(store.set(SERVER, tokens('a1'))).rejects.toMatchObject({ name: 'McpAuthError', step: 'token-store', message: expect.stringContaining('belongs to another user') });
    await expect(store.get(SERVER)).rejects.toMatchObject({ step: 'token-store' });
    expect(readdirSync(directory)).toEqual([]);
  });

  it('keeps the keys of concurrent sets, and the last of two sets to one key', async () => {
    const store = new FileTokenStore({ directory: scratch() });
    const twin = new FileTokenStore({ directory: store.directory });
    await Promise.all([store.set(SERVER, tokens('a1')), store.set(OTHER, tokens('b1')), twin.set(SERVER, tokens('a2')), store.set(SERVER, tokens('a3'))]);
    expect(await store.get(SERVER)).toEqual(tokens('a3'));
    expect(await store.get(OTHER)).toEqual(tokens('b1'));
    expect(readdirSync(store.directory).filter((file) => file.endsWith('.tmp'))).toEqual([]);
  });

  it('names each file after its server, so a person can tell them apart', async () => {
    const store = new FileTokenStore({ directory: scratch() });
    await store.set(SERVER, tokens('a1'));
    await store.set(OTHER, tokens('b1'));
    await store.set('not a url', tokens('c1'));
    const files = readdirSync(store.directory).sort();
    expect(files).toEqual([
      expect.stringMatching(/^other\.example\.com_8443-[0-9a-f]{32}\.json$/),
      expect.stringMatching(/^server-[0-9a-f]{32}\.json$/),
      expect.stringMatching(/^tools\.example\.com-[0-9a-f]{32}\.json$/),
    ]);
    expect(JSON.parse(readFileSync(join(store.directory, files[2] as string), 'utf8'))).toEqual({ format: 'rxmcp-tokens', version: 1, key: SERVER, tokens: tokens('a1') });
  });

  it('reports a corrupt file without quoting it, and will not write over it', async () => {
    const store = new FileTokenStore({ directory: scratch() });
    await store.set(SERVER, tokens('a1'));
    const file = onlyFile(store.directory);
    writeFileSync(file, '{"format":"rxmcp-tokens","version":1,"key":"x","tokens":{"accessToken":"secret-abc"');
    const failure = await store.get(SERVER).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpAuthError);
    expect(failure).toMatchObject({ step: 'token-store' });
    expect((failure as Error).cause).toBeUndefined();
    expect((failure as Error).message).toContain(JSON.stringify(file));
    expect((failure as Error).message).toContain('is not JSON');
    expect((failure as Error).message).not.toContain('secret-abc');
    await expect(store.set(SERVER, tokens('a2'))).rejects.toMatchObject({ step: 'token-store' });
    expect(readFileSync(file, 'utf8')).toContain('secret-abc');
    await store.clear(SERVER);
    await store.set(SERVER, tokens('a3'));
    expect(await store.get(SERVER)).toEqual(tokens('a3'));
  });

  it('reports a file that is not its own, one for another server, and one missing a field', async () => {
    const store = new FileTokenStore({ directory: scratch() });
    await store.set(SERVER, tokens('a1'));
    const file = onlyFile(store.directory);

    writeFileSync(file, JSON.stringify({ theme: 'dark' }));
    await expect(store.get(SERVER)).rejects.toThrow(/is not an rxmcp token file/);

    writeFileSync(file, JSON.stringify({ format: 'rxmcp-tokens', version: 2, key: SERVER, tokens: {} }));
    await expect(store.get(SERVER)).rejects.toThrow(/is in token file format 2/);

    writeFileSync(file, JSON.stringify({ format: 'rxmcp-tokens', version: 1, key: OTHER, tokens: tokens('b1') }));
    await expect(store.get(SERVER)).rejects.toThrow(`holds the tokens of another server, ${JSON.stringify(OTHER)}`);

    const { accessToken: _dropped, ...withoutAccess } = tokens('a1');
    writeFileSync(file, JSON.stringify({ format: 'rxmcp-tokens', version: 1, key: SERVER, tokens: { ...withoutAccess, clientSecret: 42 } }));
    const damaged = await store.get(SERVER).catch((error: unknown) => error);
    expect(damaged).toBeInstanceOf(McpClientError);
    expect((damaged as Error).message).toMatch(/is damaged \(tokens\.accessToken, tokens\.clientSecret\)/);
    expect((damaged as Error).message).not.toContain('refresh-a1');
  });

  it('reports a store it cannot write as McpAuthError', async () => {
    const parent = scratch();
    writeFileSync(join(parent, 'file'), '');
    const store = new FileTokenStore({ directory: join(parent, 'file', 'tokens') });
    await expect(store.set(SERVER, tokens('a1'))).rejects.toMatchObject({ name: 'McpAuthError', step: 'token-store', message: expect.stringMatching(/cannot (create|read)/) });
  });

  describe('without a directory', () => {
    const saved = { XDG_CONFIG_HOME: process.env['XDG_CONFIG_HOME'] };
    afterEach(() => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });

    it('keeps its files under $XDG_CONFIG_HOME/rxmcp', async () => {
      const config = scratch();
      process.env['XDG_CONFIG_HOME'] = config;
      const store = new FileTokenStore();
      expect(store.directory).toBe(join(config, 'rxmcp', 'tokens'));
      await store.set(SERVER, tokens('a1'));
      expect(readdirSync(join(config, 'rxmcp', 'tokens'))).toHaveLength(1);
    });

    it('falls back to ~/.config/rxmcp when XDG_CONFIG_HOME is unset, empty or relative', () => {
      const fallback = join(homedir(), '.config', 'rxmcp', 'tokens');
      delete process.env['XDG_CONFIG_HOME'];
      expect(new FileTokenStore().directory).toBe(fallback);
      process.env['XDG_CONFIG_HOME'] = '';
      expect(new FileTokenStore().directory).toBe(fallback);
      process.env['XDG_CONFIG_HOME'] = 'relative/config';
      expect(new FileTokenStore().directory).toBe(fallback);
    });
  });

  it('refuses an option it does not know', () => {
    expect(() => new FileTokenStore({ dir: '/tmp' } as never)).toThrow('unknown option: dir');
  });
});
