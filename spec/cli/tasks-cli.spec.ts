import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, lastValueFrom } from 'rxjs';
import { McpClient, type TaskEvent } from '../../src/index.js';
import { rxmcp } from '../support/cli.js';
import { everythingServer, fixture } from '../support/servers.js';

const root = join(__dirname, '..', '..');

describe('rxmcp and tasks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rxmcp-cli-tasks-'));
  const server = fixture('tasks-server.mjs', dir);
  const serverWords = ['--', server.command, ...server.args];
  const mcp = McpClient.connectStdio({ ...server, tasks: true });
  const detached = async (ms: number): Promise<string> => {
    const first = await firstValueFrom(mcp.callToolAsTask('slow', { ms }, { detach: true }));
    return (first as Extract<TaskEvent, { kind: 'status' }>).task.taskId;
  };
  afterAll(async () => {
    await mcp.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('follows a tool call that became a task, its status messages on the progress line', async () => {
    const run = await rxmcp(['call', 'slow', '{"ms":300}', ...serverWords]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('slept 300 ms\n');
    expect(run.stderr).toMatch(/task [0-9a-f]+ working: First half/);
  });

  it('resumes a task by id and prints its result', async () => {
    const taskId = await detached(300);
    const run = await rxmcp(['task', taskId, ...serverWords]);
    expect(run.stdout).toBe('slept 300 ms\n');
    expect(run.code).toBe(0);
  });

  it('cancels a task with --cancel', async () => {
    const taskId = await detached(5000);
    const run = await rxmcp(['task', taskId, '--cancel', ...serverWords]);
    expect(run.code).toBe(0);
    await expect(lastValueFrom(mcp.resumeTask(taskId))).rejects.toMatchObject({ reason: 'cancelled' });
  });

  it('says as JSON that it asked for the cancel, with --json', async () => {
    const taskId = await detached(5000);
    const run = await rxmcp(['task', taskId, '--cancel', '--json', ...serverWords]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ taskId, cancelRequested: true });
  });

  it('detaches on Ctrl-C, leaving the task running', async () => {
    const taskId = await detached(5000);
    const child = spawn(process.execPath, [join(root, 'bin', 'rxmcp.mjs'), 'task', taskId, ...serverWords], { cwd: root });
    let stderr = '';
    let interrupted = false;
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        // One Ctrl-C only: a second one while rxmcp closes would end it by the signal.
        if (!interrupted && stderr.includes('working')) {
          interrupted = true;
          child.kill('SIGINT');
        }
      });
      child.on('close', resolve);
    });
    expect(code).toBe(130);
    expect(stderr).toContain(`detached from task ${taskId}`);
    const first = await firstValueFrom(mcp.resumeTask(taskId, { detach: true }));
    expect(first).toMatchObject({ kind: 'status', task: { status: 'working' } });
  });

  it('lists the tasks of a 2025-11-25 server', async () => {
    const run = await rxmcp(['tasks', '--', everythingServer.command, ...everythingServer.args]);
    expect(run.code).toBe(0);
  });
});
