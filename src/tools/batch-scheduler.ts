/** One call of a batch, ready to run. */
export interface BatchJob<R> {
  /** Calls with the same key are the same call (same tool, same arguments). */
  key: string;
  /** True when the tool is annotated `readOnlyHint` and `idempotentHint` by a source whose annotations are trusted. */
  safe: boolean;
  run(): Promise<R>;
}

/**
 * Runs a batch of tool calls and answers in the batch's order, whatever
 * finishes first. One call at a time, in order, unless every call is safe to
 * overlap (read-only and idempotent, as a trusted server said): then the distinct
 * calls run together, at most `concurrency` at once, and identical calls are
 * one run whose outcome answers each of them. `concurrency` 1 keeps every
 * batch serial. A job's rejection is its outcome; it never stops the others.
 */
export async function runBatch<R>(jobs: readonly BatchJob<R>[], concurrency: number): Promise<PromiseSettledResult<R>[]> {
  const widen = concurrency > 1 && jobs.length > 1 && jobs.every((job) => job.safe);
  if (!widen) {
    const outcomes: PromiseSettledResult<R>[] = [];
    for (const job of jobs) outcomes.push(await settle(job));
    return outcomes;
  }
  const distinct = new Map<string, BatchJob<R>>();
  for (const job of jobs) if (!distinct.has(job.key)) distinct.set(job.key, job);
  const outcomes = new Map<string, PromiseSettledResult<R>>();
  const queue = [...distinct.values()];
  const worker = async (): Promise<void> => {
    for (let job = queue.shift(); job; job = queue.shift()) outcomes.set(job.key, await settle(job));
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
  return jobs.map((job) => outcomes.get(job.key) as PromiseSettledResult<R>);
}

// A job that throws before it returns a promise fails alone, like one that rejects.
async function settle<R>(job: BatchJob<R>): Promise<PromiseSettledResult<R>> {
  try {
    return { status: 'fulfilled', value: await job.run() };
  } catch (reason) {
    return { status: 'rejected', reason };
  }
}
