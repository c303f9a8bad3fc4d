import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { hostileCases, type HostileCase, hostileServer } from '../support/hostile-corpus.js';
import { RAW_IN_BLOCK } from '../support/unsafe-text.js';

// The hostile-answer corpus (spec/fixtures/hostile-corpus.cjs) through the
// built CLI's command line, as a user runs it: `rxmcp COMMAND -- node
// hostile-server.mjs --case NAME`, each run with its own server process.
// A case is run only through one or two commands that send a method it
// answers. Needs `npm run build`.

// A run that takes longer hangs: the slowest case (a 100,000-level result
// written out as JSON) takes a few seconds on a loaded machine.
const RUN_BOUND_MS = 45_000;
// The whole corpus: about 190 runs, two at a time; runs not started by then
// are reported, not run.
const TOTAL_BOUND_MS = 420_000;
const CONCURRENCY = 2;
// The exit codes docs/cli.md lists for a command that reached a server: 0
// success, 1 the tool reported an error (only `call`), 3 any failure.
const DOCUMENTED = new Set([0, 1, 3]);

/** The CLI command that sends each method, and whether the server must speak the 2025-11-25 era for it. */
const COMMANDS: Record<string, { args: string[]; legacy?: boolean }> = {
  'server/discover': { args: ['describe'] },
  initialize: { args: ['describe'], legacy: true },
  'tools/call': { args: ['call', 'echo', '--arg', 'text=hi'] },
  'tools/list': { args: ['tools'] },
  'resources/read': { args: ['read', 'file:///a.txt'] },
  'prompts/get': { args: ['prompt', 'greet', '--arg', 'who=x'] },
  'resources/list': { args: ['resources'] },
  'resources/templates/list': { args: ['templates'] },
  'prompts/list': { args: ['prompts'] },
};
const HANDSHAKE = ['server/discover', 'initialize'];

interface Plan {
  label: string;
  args: string[];
  json: boolean;
}

// The runs for one case, at most two. A handshake case: `describe --json` in
// each era it answers. A wrong-type case: the plain command of its method
// (the text views are what read members one by one). Any other: the plain
// command of the first method it answers and `--json` of the second (or the
// first again), with the handshake benign; but a case that answers the
// handshake too gets a plain `describe` and `--json` of the first.
function plansFor(entry: HostileCase): Plan[] {
  const plan = (method: string, json: boolean, benignHandshake: boolean): Plan => {
    const { args, legacy } = COMMANDS[method] as { args: string[]; legacy?: boolean };
    const flags = [...(legacy ? ['--legacy'] : []), ...(benignHandshake ? ['--benign-handshake'] : [])];
    const server = ['--', hostileServer.command, ...hostileServer.args, '--case', entry.name, ...flags];
    return { label: `${json ? '--json ' : ''}${args.join(' ')}${legacy ? ' (legacy)' : ''}`, args: [...(json ? ['--json'] : []), ...args, ...server], json };
  };
  const handshakes = HANDSHAKE.filter((method) => entry.on[method] !== undefined);
  const others = Object.keys(COMMANDS).filter((method) => !HANDSHAKE.includes(method) && entry.on[method] !== undefined);
  const wrongType = entry.name.startsWith('wrong-');
  if (entry.handshake) return handshakes.map((method) => plan(method, !wrongType, false));
  const [first, second = first] = others;
  if (first === undefined) return [];
  if (wrongType) return [plan(first, false, true)];
  if (handshakes.length > 0) return [plan('server/discover', false, false), plan(first, true, true)];
  return [plan(first, false, true), plan(second as string, true, true)];
}

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

// The CLI's main(), loaded once per runner process (spec/fixtures/cli-runner.mjs)
// and handed each run's own stdin, stdout and stderr as bin/rxmcp.mjs hands
// it the process's: loading the CLI costs more than most runs, and there are
// about two hundred. A runner takes one run at a time; one whose run outlives
// the bound is killed (and so is one that dies), and the next run starts a
// fresh one.
const runner = join(__dirname, '..', 'fixtures', 'cli-runner.mjs');

class CliRunner {
  private child: ChildProcess | undefined;
  private next = 0;

  run(args: string[]): Promise<Outcome> {
    const child = (this.child ??= this.start());
    const id = this.next++;
    // What the process wrote on its own streams during this run: written past the io the CLI was handed.
    const stray: Buffer[] = [];
    const onStray = (chunk: Buffer): number => stray.push(chunk);
    child.stdout?.on('data', onStray);
    child.stderr?.on('data', onStray);
    return new Promise((resolve) => {
      const finish = (outcome: Outcome): void => {
        clearTimeout(killer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.stdout?.off('data', onStray);
        child.stderr?.off('data', onStray);
        const past = Buffer.concat(stray).toString('utf8');
        resolve(past === '' ? outcome : { ...outcome, stderr: `${outcome.stderr}${past}` });
      };
      const onMessage = (message: { id: number; code: number; stdout: string; stderr: string }): void => {
        if (message.id === id) finish({ code: message.code, signal: null, stdout: message.stdout, stderr: message.stderr });
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
        if (this.child === child) this.child = undefined;
        finish({ code: null, signal: signal ?? 'SIGABRT', stdout: '', stderr: `the CLI's process ended mid-run (exit ${code})\n` });
      };
      const killer = setTimeout(() => child.kill('SIGKILL'), RUN_BOUND_MS);
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ id, args });
    });
  }

  stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => (child.once('exit', () => resolve()), child.kill('SIGKILL')));
  }

  private start(): ChildProcess {
    return spawn(process.execPath, [runner], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  }
}

// What is wrong with one run, if anything, as sentences.
function problemsOf(plan: Plan, run: Outcome): string[] {
  const problems: string[] = [];
  const say = (what: string): number => problems.push(`${plan.label}: ${what}`);
  if (run.code === null) say(`did not exit within ${RUN_BOUND_MS} ms (killed by ${run.signal})`);
  else if (!DOCUMENTED.has(run.code) || (run.code === 1 && !/^(--json )?call /.test(plan.label))) say(`exited ${run.code}`);
  // A stack frame or an engine error's text means something escaped the CLI's own error lines.
  const crash = /^\s+at |RangeError|TypeError|ReferenceError|SyntaxError|Maximum call stack|heap out of memory/m.exec(run.stderr);
  if (crash) say(`crash text on stderr: ${JSON.stringify(run.stderr.slice(Math.max(0, crash.index - 80), crash.index + 200))}`);
  // No --verbose, --log-level or question: a success says nothing on stderr, a failure one line.
  const expected = run.code === 0 ? /^$/ : /^rxmcp: [^\n]*\n$/;
  // The one line is bounded too: a server's megabyte of error message is not the terminal's to scroll through.
  if (run.stderr.length > 4096) say(`wrote ${run.stderr.length} characters on stderr`);
  if (run.code !== null && !expected.test(run.stderr)) say(`wrote more or other than ${run.code === 0 ? 'nothing' : 'one line'} on stderr: ${JSON.stringify(run.stderr.slice(0, 200))}`);
  for (const stream of ['stdout', 'stderr'] as const) {
    const raw = RAW_IN_BLOCK.exec(run[stream]);
    if (raw) say(`raw U+${(raw[0].codePointAt(0) as number).toString(16).padStart(4, '0')} on ${stream} at ${raw.index}`);
  }
  if (plan.json && run.code === 0) {
    try {
      JSON.parse(run.stdout);
    } catch (error) {
      say(`--json stdout is not JSON (${(error as Error).message}): ${JSON.stringify(run.stdout.slice(0, 200))}`);
    }
  }
  return problems;
}

// The cases the CLI reaches, each with its runs.
const planned = hostileCases.map((entry) => ({ entry, plans: plansFor(entry) })).filter(({ plans }) => plans.length > 0);

describe('the hostile-answer corpus, through the built CLI over stdio', () => {
  // Every run, queued in beforeAll and taken CONCURRENCY at a time; each
  // case's test waits for its own.
  const outcomes = new Map<string, Promise<string[]>>();
  const runners = Array.from({ length: CONCURRENCY }, () => new CliRunner());
  let stopped = false;
  beforeAll(() => {
    const deadline = Date.now() + TOTAL_BOUND_MS;
    const queue = planned.flatMap(({ entry, plans }) => plans.map((plan) => ({ entry, plan })));
    const problems = new Map<string, string[]>();
    const remaining = new Map<string, number>();
    const done = new Map<string, () => void>();
    for (const { entry, plans } of planned) {
      problems.set(entry.name, []);
      remaining.set(entry.name, plans.length);
      outcomes.set(entry.name, new Promise((resolve) => done.set(entry.name, () => resolve(problems.get(entry.name) as string[]))));
    }
    const worker = async (cli: CliRunner): Promise<void> => {
      for (let next = queue.shift(); next && !stopped; next = queue.shift()) {
        const { entry, plan } = next;
        const found = Date.now() > deadline ? [`${plan.label}: not run, the corpus took longer than ${TOTAL_BOUND_MS} ms`] : problemsOf(plan, await cli.run(plan.args));
        (problems.get(entry.name) as string[]).push(...found);
        remaining.set(entry.name, (remaining.get(entry.name) as number) - 1);
        if (remaining.get(entry.name) === 0) (done.get(entry.name) as () => void)();
      }
    };
    for (const cli of runners) void worker(cli);
  });

  // When only some tests run (-t), the rest of the queue is dropped.
  afterAll(async () => {
    stopped = true;
    await Promise.all(runners.map((cli) => cli.stop()));
  });

  it('reaches every case but those the CLI has no command for (completion/complete)', () => {
    const unreached = hostileCases.filter((entry) => !planned.some((reached) => reached.entry === entry));
    for (const entry of unreached) expect(Object.keys(entry.on)).toEqual(['completion/complete']);
    expect(planned.length).toBeGreaterThan(150);
  });

  it.each(planned.map(({ entry }) => [entry.name, entry.about]))(
    'ends %s (%s) with a documented exit code, one line of error, nothing raw on the terminal, and JSON that parses',
    async (name) => {
      expect(await outcomes.get(name)).toEqual([]);
    },
    // Each waits for the runs ahead of it in the queue too.
    TOTAL_BOUND_MS + RUN_BOUND_MS + 10_000,
  );
});
