// Node's own report of a rejection nobody handled or an exception nobody
// caught, counted. Jest takes these events for itself, so the runs that count
// them are processes of their own (spec/support/*-run.ts).

export interface ProcessFaults {
  problems: string[];
  unhandled: number;
  uncaught: number;
}

/** Starts counting this process's unhandled rejections and uncaught exceptions, each also described in `problems`. */
export function watchProcessFaults(describe: (value: unknown) => string = String): ProcessFaults {
  const faults: ProcessFaults = { problems: [], unhandled: 0, uncaught: 0 };
  process.on('unhandledRejection', (reason) => {
    faults.unhandled++;
    faults.problems.push(`unhandled rejection: ${describe(reason)}`);
  });
  process.on('uncaughtException', (error) => {
    faults.uncaught++;
    faults.problems.push(`uncaught exception: ${describe(error)}`);
  });
  return faults;
}
