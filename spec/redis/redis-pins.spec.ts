import { McpClient, McpStoreError, Pins, Registry, type DriftQuestion } from 'rxmcp';
import { RedisPins } from 'rxmcp/redis';
import { createClient } from 'redis';
import { fixture } from '../support/servers.js';
import { describeWithRedis, type RedisServer, startRedis } from '../support/redis.js';

describeWithRedis('RedisPins', () => {
  let redis: RedisServer;
  const closing: Array<{ close(): Promise<void> }> = [];
  const track = <T extends { close(): Promise<void> }>(thing: T): T => (closing.push(thing), thing);
  const rug = (...args: string[]): Registry => {
    const client = track(McpClient.connectStdio({ ...fixture('rug-server.mjs', ...args) }));
    const registry = new Registry();
    registry.add(client, { prefix: 'docs' });
    return registry;
  };
  const names = async (pins: Pins) => (await pins.toolsForLlm()).map((tool) => tool.function.name);
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.dispose());
  afterEach(async () => {
    await Promise.all(closing.splice(0).map((thing) => thing.close()));
  });

  it('holds every agent of a namespace to the definitions first seen, and an approval by one re-pins for all', async () => {
    const first = new Pins({ provider: rug(), store: track(new RedisPins({ url: redis.url, namespace: 'fleet-1' })) });
    expect(await names(first)).toContain('docs_search_docs');
    const questions: DriftQuestion[] = [];
    const declining = new Pins({ provider: rug('--variant', '1'), store: track(new RedisPins({ url: redis.url, namespace: 'fleet-1' })), onDrift: (question) => (questions.push(question), false) });
    expect(await names(declining)).not.toContain('docs_search_docs');
    expect(questions[0]?.before.description).toBe('Searches the docs');
    const approving = new Pins({ provider: rug('--variant', '1'), store: track(new RedisPins({ url: redis.url, namespace: 'fleet-1' })), onDrift: () => true });
    expect(await names(approving)).toContain('docs_search_docs');
    // The first agent's server still gives the old definition, which is now the changed one.
    expect(await names(first)).not.toContain('docs_search_docs');
    // Another namespace shares nothing.
    const elsewhere = new Pins({ provider: rug(), store: track(new RedisPins({ url: redis.url, namespace: 'fleet-2' })) });
    expect(await names(elsewhere)).toContain('docs_search_docs');
  });

  it('fails closed on an entry that is not a pin, naming the store', async () => {
    const store = track(new RedisPins({ url: redis.url, namespace: 'broken' }));
    const raw = track(createClient({ url: redis.url }));
    await raw.connect();
    await raw.hSet('rxmcp:{broken}:pins', 'docs_echo', '{"tool":"docs_echo"');
    await expect(store.read(['docs_echo'])).rejects.toBeInstanceOf(McpStoreError);
    const warnings: string[] = [];
    const pins = new Pins({ provider: rug(), store, onWarn: (line) => warnings.push(line) });
    expect(await names(pins)).toEqual([]);
    expect(warnings[0]).toContain('RedisPins');
  });

  it('never lets a first sighting overwrite a pin another agent wrote first', async () => {
    const store = track(new RedisPins({ url: redis.url, namespace: 'race' }));
    const pin = (description: string) => ({ tool: 't', fingerprint: `sha256:${description.repeat(64)}`, definition: { name: 't', description }, pinnedAt: new Date(0).toISOString() });
    await store.write([pin('a')], { replace: false });
    await store.write([pin('b')], { replace: false });
    expect((await store.read(['t'])).get('t')?.definition.description).toBe('a');
    await store.write([pin('b')], { replace: true });
    expect((await store.read(['t'])).get('t')?.definition.description).toBe('b');
  });
});
