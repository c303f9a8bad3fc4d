import { execFile } from 'node:child_process';
import { join } from 'node:path';

// A caller's hooks that throw (onWarn, onLog, onProgress) while a server
// gives them plenty to report: junk lines on stdio, a legacy GET stream
// that hangs up until the client gives up on it. The run is a process of its
// own (spec/support/throwing-hooks-run.ts): jest would catch an uncaught
// exception or an unhandled rejection before the run could count it.

interface RunReport {
  answers: number;
  problems: string[];
  unhandled: number;
  uncaught: number;
}

describe('hooks that throw', () => {
  it('end in no uncaught exception or unhandled rejection, over stdio and 2025-11-25 HTTP, and every call is answered', async () => {
    const report = await new Promise<RunReport>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', join(__dirname, '..', 'support', 'throwing-hooks-run.ts')],
        { cwd: join(__dirname, '..', '..'), timeout: 60_000 },
        (error, stdout, stderr) => {
          try {
            resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '') as RunReport);
          } catch {
            reject(new Error(`the run gave no report (${error?.message ?? 'no error'}): ${stderr.slice(-2000)}`));
          }
        },
      );
    });
    expect(report.problems).toEqual([]);
    expect(report.uncaught).toBe(0);
    expect(report.unhandled).toBe(0);
    expect(report.answers).toBe(4);
  }, 70_000);
});
