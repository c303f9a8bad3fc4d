import { readdirSync, readFileSync } from 'node:fs';

/** A process as /proc shows it: its pid, its parent's, its command line, and its start time, which tells it apart from a later process given the same pid. */
export interface ProcessSeen {
  pid: number;
  ppid: number;
  started: string;
  command: string;
}

// /proc/PID/stat: "pid (comm) state ppid … starttime …"; comm may hold spaces and parentheses, so fields are counted after the last ')'.
function stat(pid: number): (Omit<ProcessSeen, 'command'> & { state: string }) | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  return { pid, state: fields[0] as string, ppid: Number(fields[1]), started: fields[19] as string };
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** `root` and every process under it (children, their children…), read from /proc (Linux). */
export function processTree(root: number): ProcessSeen[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => stat(Number(name)))
    .filter((seen) => seen !== undefined);
  const tree: ProcessSeen[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    const seen = all.find((entry) => entry.pid === pid);
    if (seen) tree.push({ pid: seen.pid, ppid: seen.ppid, started: seen.started, command: commandLine(pid) });
    for (const child of all) if (child.ppid === pid) queue.push(child.pid);
  }
  return tree;
}

/** Whether that process has ended: no longer in /proc, a zombie waiting to be reaped, or its pid now someone else's. */
export function hasEnded(seen: ProcessSeen): boolean {
  const now = stat(seen.pid);
  return now === undefined || now.state === 'Z' || now.started !== seen.started;
}
