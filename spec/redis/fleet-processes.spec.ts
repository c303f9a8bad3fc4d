import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { type LlmToolCall, Policy, type PolicyRule, Toolkit, type ToolMessage } from 'rxmcp';
import { RedisGrants, RedisLeaseTable } from 'rxmcp/redis';
import { createClient } from 'redis';
import { z } from 'zod';
import { describeWithRedis, type RedisServer, startRedis } from '../support/redis.js';

const AGENT = join(__dirname, '..', 'fixtures', 'redis-agent.ts');
const children = new Set<ChildProcess>();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const call = (id: string, name: string, args: object): LlmToolCall => ({ id, function: { name, arguments: args } });

/** Starts an agent process; its messages come in order through `next()`. */
function agent(mode: string, options: object): { child: ChildProcess; next: <T>() => Promise<T>; exited: Promise<NodeJS.Signals | number | null> } {
  const child = fork(AGENT, [mode], { execArgv: ['--import', 'tsx'], env: { ...process.env, AGENT: JSON.stringify(options) }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => (children.delete(child), resolve(signal ?? code))));
  const queue: unknown[] = [];
  const waiting: Array<(message: unknown) => void> = [];
  child.on('message', (message) => (waiting.shift() ?? ((m: unknown) => queue.push(m)))(message));
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      if (queue.length > 0) return resolve(queue.shift() as T);
      waiting.push(resolve as (message: unknown) => void);
      exited.then((how) => reject(new Error(`agent ${mode} exited (${how}) before answering`)));
    });
  return { child, next, exited };
}

/** Whether two leased paths overlap: one is the other or lies inside it. */
const overlaps = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

describeWithRedis('a fleet of agent processes over Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await redis?.dispose();
  });

  it('never lets two processes hold overlapping paths at once, over a thousand acquisitions', async () => {
    const paths = ['/w', '/w/a', '/w/a/1', '/w/a/2', '/w/b', '/w/b/1', '/w/c', '/w/d'];
    const agents = ['p1', 'p2', 'p3', 'p4'].map((agentId) => ({ agentId, ...agent('contend', { url: redis.url, namespace: 'contend', agentId, rounds: 260, paths }) }));
    type Log = { holds: Array<[string[], string, string]>; refusals: number; problems: string[] };
    const logs = await Promise.all(agents.map(({ next }) => next<Log>()));
    await Promise.all(agents.map(({ exited }) => exited));

    const holds = logs.flatMap((log, i) => log.holds.map(([held, from, until]) => ({ agent: agents[i]?.agentId, held, from: BigInt(from), until: BigInt(until) })));
    expect(holds.length).toBeGreaterThanOrEqual(1000);
    expect(logs.flatMap((log) => log.problems)).toEqual([]);
    // The contention was real: agents were turned away, and held overlapping paths in turn.
    expect(logs.reduce((sum, log) => sum + log.refusals, 0)).toBeGreaterThan(50);
    const clashes: string[] = [];
    holds.sort((a, b) => (a.from < b.from ? -1 : 1));
    for (const [i, one] of holds.entries()) {
      for (const other of holds.slice(i + 1)) {
        if (other.from > one.until) break;
        if (other.agent !== one.agent && one.held.some((p) => other.held.some((q) => overlaps(p, q)))) {
          clashes.push(`${one.agent} ${one.held} and ${other.agent} ${other.held}`);
        }
      }
    }
    expect(clashes).toEqual([]);
  }, 60_000);

  it('frees the lease of a holder killed while holding at its TTL, not before', async () => {
    const observer = new RedisLeaseTable({ url: redis.url, namespace: 'killed' });
    const holder = agent('hold', { url: redis.url, namespace: 'killed', agentId: 'doomed', paths: ['/w/k'], ttl: 2 });
    const { sent, refusal } = await holder.next<{ sent: string; refusal: unknown }>();
    expect(refusal).toBeNull();
    holder.child.kill('SIGKILL');
    expect(await holder.exited).toBe('SIGKILL');
    expect(await observer.acquire('observer', ['/w'])).toMatchObject({ path: '/w/k', holder: 'doomed' });
    let freedAt: bigint | undefined;
    while (freedAt === undefined) {
      if ((await observer.acquire('observer', ['/w/k'])) === undefined) freedAt = process.hrtime.bigint();
      else await sleep(25);
    }
    const heldMs = Number(freedAt - BigInt(sent)) / 1e6;
    expect(heldMs).toBeGreaterThanOrEqual(1990);
    expect(heldMs).toBeLessThan(3500);
    await observer.close();
  }, 20_000);

  it('binds a policy in another process with a grant made here, within one decision; a deny rule still wins', async () => {
    const other = agent('policy', { url: redis.url, namespace: 'grants', agentId: 'other' });
    expect(await other.next()).toEqual({ ready: true });
    let n = 0;
    type Reply = { answer: ToolMessage; asked: number; grants: PolicyRule[] };
    const decide = async (name: string, args: object): Promise<Reply> => {
      other.child.send({ id: String(++n), call: call(String(n), name, args) });
      return other.next<Reply>();
    };

    expect(await decide('fs_write', { path: '/w/x', content: '' })).toMatchObject({ answer: { is_error: true, content: 'Denied by the user' }, asked: 1 });

    const book = new RedisGrants({ url: redis.url, namespace: 'grants' });
    const redisSide = createClient({ url: redis.url });
    await redisSide.connect();
    const durable: number[] = [];
    const tools = new Toolkit({ name: 'fs' })
      .tool('fs_write', { input: z.object({ path: z.string(), content: z.string() }) }, () => ({ content: [{ type: 'text', text: 'written' }] }))
      .tool('fs_delete', { input: z.object({ path: z.string() }) }, () => ({ content: [{ type: 'text', text: 'deleted' }] }));
    const here = new Policy({
      provider: tools,
      grantsStore: book,
      onAsk: (question) => ({ action: 'always-allow', rule: { tool: question.kind === 'permission' ? question.tool : '' } }),
      // Told only once Redis holds the grant: look from another connection.
      onGrant: () => void redisSide.lLen('rxmcp:{grants}:grants').then((length) => durable.push(length)),
    });
    expect((await here.executeToolCalls([call('h1', 'fs_write', { path: '/w/x', content: '' })]))[0]?.is_error).toBe(false);

    const bound = await decide('fs_write', { path: '/w/y', content: '' });
    expect(bound).toMatchObject({ answer: { is_error: false, content: 'wrote /w/y' }, asked: 1 });
    expect(bound.grants).toEqual([{ tool: 'fs_write', decision: 'allow' }]);

    expect((await here.executeToolCalls([call('h2', 'fs_delete', { path: '/w/x' })]))[0]?.is_error).toBe(false);
    expect(await decide('fs_delete', { path: '/w/x' })).toMatchObject({ answer: { is_error: true, content: 'Denied by policy: nothing is deleted here' }, asked: 1 });
    await sleep(50);
    expect(durable).toEqual([1, 2]);

    other.child.send({ exit: true });
    await other.exited;
    await Promise.all([book.close(), redisSide.close()]);
  }, 30_000);
});
