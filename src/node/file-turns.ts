// The operations waiting on each file in this process (token files, grant
// files), so that two writes to one file land in the order they were asked
// for, whichever store object asked.
const queues = new Map<string, Promise<void>>();

/** Runs `task` once every earlier task on `file` in this process has settled. */
export function inTurn<T>(file: string, task: () => Promise<T>): Promise<T> {
  const result = (queues.get(file) ?? Promise.resolve()).then(task);
  const tail = result.then(
    () => undefined,
    () => undefined,
  );
  queues.set(file, tail);
  void tail.then(() => {
    if (queues.get(file) === tail) queues.delete(file);
  });
  return result;
}
