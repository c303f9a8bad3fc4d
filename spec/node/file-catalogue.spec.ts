import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpClientError, McpStoreError, type StoredCatalogue } from '../../src/index.js';
import { FileCatalogue } from '../../src/node/index.js';
import { checkStoredCatalogue } from '../../src/providers/catalogue-store.js';
import { canonicalJson } from '../../src/util/canonical-json.js';

let scratch: string;
const entry = (name = 'read'): StoredCatalogue => ({ fingerprint: 'sha256:abc', savedAt: Date.now(), tools: [{ name, inputSchema: { type: 'object' } }] });

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'rxmcp-catalogue-'));
});

afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('FileCatalogue', () => {
  it('keeps each server\'s entry in a file of mode 0600, the others\' left as they were', async () => {
    const path = join(scratch, 'deep', 'catalogue.json');
    const catalogue = new FileCatalogue({ path });
    await catalogue.set('git', entry('log'));
    await catalogue.set('fs', entry('read'));
    await catalogue.set('git', entry('status'));
    expect((await new FileCatalogue({ path }).get('git'))?.tools.map((tool) => tool.name)).toEqual(['status']);
    expect((await catalogue.get('fs'))?.tools.map((tool) => tool.name)).toEqual(['read']);
    expect(await catalogue.get('nobody')).toBeUndefined();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('files a server named __proto__ as any other, and lends it no prototype', async () => {
    const path = join(scratch, 'catalogue.json');
    const catalogue = new FileCatalogue({ path });
    await catalogue.set('__proto__', entry('polluted'));
    await catalogue.set('constructor', entry('built'));
    expect((await catalogue.get('__proto__'))?.tools[0]?.name).toBe('polluted');
    expect((await catalogue.get('constructor'))?.tools[0]?.name).toBe('built');
    expect(await catalogue.get('toString')).toBeUndefined();
    expect(({} as Record<string, unknown>)['tools']).toBeUndefined();
  });

  it('keeps every entry when several catalogues of one file write at once', async () => {
    const path = join(scratch, 'catalogue.json');
    await Promise.all(Array.from({ length: 8 }, (_, n) => new FileCatalogue({ path }).set(`server${n}`, entry(`tool${n}`))));
    const document = JSON.parse(readFileSync(path, 'utf8'));
    expect(Object.keys(document.servers).sort()).toEqual(Array.from({ length: 8 }, (_, n) => `server${n}`));
  });

  it('refuses an entry that is not one, writing nothing', async () => {
    const path = join(scratch, 'catalogue.json');
    await expect(new FileCatalogue({ path }).set('git', { fingerprint: 'x', savedAt: 1, tools: [{ name: 'no schema' }] } as never)).rejects.toThrow(
      'FileCatalogue: the entry for "git" is not stored: its tools do not read as a tools/list page (tools.0.inputSchema: expected an object)',
    );
    expect(() => statSync(path)).toThrow();
  });

  it('fails closed on a file others may write to, and does not write over it', async () => {
    const path = join(scratch, 'catalogue.json');
    await new FileCatalogue({ path }).set('git', entry());
    chmodSync(path, 0o666);
    const before = readFileSync(path);
    const catalogue = new FileCatalogue({ path });
    await expect(catalogue.get('git')).rejects.toThrow(McpStoreError);
    await expect(catalogue.set('git', entry('other'))).rejects.toThrow(/may be written by others/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('fails closed on a catalogue file of another version', async () => {
    const path = join(scratch, 'catalogue.json');
    writeFileSync(path, JSON.stringify({ format: 'rxmcp-catalogue', version: 2, servers: {} }), { mode: 0o600 });
    await expect(new FileCatalogue({ path }).get('git')).rejects.toThrow(/version 2, which this rxmcp does not read \(remove it, and rxmcp writes a new one\)/);
  });

  it('refuses an unknown option, a missing path and a negative maxAgeMs', () => {
    expect(() => new FileCatalogue({ path: 'x', maxAge: 5 } as never)).toThrow(new McpClientError('unknown option: maxAge'));
    expect(() => new FileCatalogue({} as never)).toThrow('option path must be a file path');
    expect(() => new FileCatalogue({ path: 'x', maxAgeMs: -1 })).toThrow('FileCatalogue option maxAgeMs must be a number of milliseconds, 0 or more');
  });
});

describe('a stored entry, read back', () => {
  it.each([
    ['not an object', [], 'it is not an object'],
    ['without a fingerprint', { savedAt: 1, tools: [] }, 'its fingerprint is not a short string'],
    ['with a fingerprint of a megabyte', { fingerprint: 'x'.repeat(1 << 20), savedAt: 1, tools: [] }, 'its fingerprint is not a short string'],
    ['with a time that is text', { fingerprint: 'f', savedAt: '1', tools: [] }, 'its savedAt is not a time'],
    ['with tools that are not a list', { fingerprint: 'f', savedAt: 1, tools: {} }, 'its tools are not a list'],
    ['with a tool named by a number', { fingerprint: 'f', savedAt: 1, tools: [{ name: 5, inputSchema: {} }] }, 'its tools do not read as a tools/list page (tools.0.name: expected a string)'],
    ['with too many tools', { fingerprint: 'f', savedAt: 1, tools: Array(100_001).fill({ name: 'x', inputSchema: {} }) }, 'it holds more than 100000 tools'],
  ])('is refused %s', (_what, value, reason) => {
    expect(checkStoredCatalogue(value)).toBe(reason);
  });
});

describe('canonicalJson', () => {
  it('writes equal data as equal text whatever its key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: null } })).toBe(canonicalJson({ a: { c: null, d: [1, { e: 3, f: 2 }] }, b: 1 }));
    expect(canonicalJson({ b: [undefined], a: undefined })).toBe('{"b":[null]}');
  });

  it('walks a schema nested 100,000 deep without running out of stack', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100_000; i++) schema = { type: 'array', items: schema };
    expect(canonicalJson(schema).length).toBeGreaterThan(100_000 * 20);
  });
});
