import { execFile } from 'node:child_process';
import { join } from 'node:path';

// The hostile corpus (spec/fixtures/hostile-corpus.cjs) through every public
// call, over each transport: stdio, Streamable HTTP in both eras, and
// HTTP+SSE found by the client on its own. Each run is a process of its own
// (spec/support/hostile-run.ts): jest would catch an unhandled rejection or
// an uncaught exception before the run's own listeners could count it.

interface RunReport {
  calls: number;
  problems: string[];
  unhandled: number;
  uncaught: number;
  heapGrowthMb: number;
}

const runner = join(__dirname, '..', 'support', 'hostile-run.ts');

function run(transport: string): Promise<RunReport> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', runner, transport],
      { cwd: join(__dirname, '..', '..'), timeout: 170_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const last = stdout.trim().split('\n').pop() ?? '';
        try {
          resolve(JSON.parse(last) as RunReport);
        } catch {
          reject(new Error(`the ${transport} run gave no report (${error?.message ?? 'no error'}): ${stderr.slice(-2000)}`));
        }
      },
    );
  });
}

describe('the hostile-answer corpus, through every public call', () => {
  // The four runs overlap: each spends most of its time waiting on its server.
  let runs: Record<string, Promise<RunReport>>;
  beforeAll(() => {
    runs = { stdio: run('stdio'), 'http-modern': run('http-modern'), 'http-legacy': run('http-legacy'), 'http-sse': run('http-sse') };
    for (const report of Object.values(runs)) report.catch(() => undefined);
  });

  it.each(['stdio', 'http-modern', 'http-legacy', 'http-sse'])(
    'ends every call over %s in an answer or a typed error, with no unhandled rejection, and stays usable in bounded memory',
    async (transport) => {
      const report = (await runs[transport]) as RunReport;
      expect(report.problems).toEqual([]);
      expect(report.unhandled).toBe(0);
      expect(report.uncaught).toBe(0);
      expect(report.calls).toBeGreaterThan(300);
      // The corpus sends documents of megabytes; what stays behind after it is small.
      expect(report.heapGrowthMb).toBeLessThan(150);
    },
    180_000,
  );
});
