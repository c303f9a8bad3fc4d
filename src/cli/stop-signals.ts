/** The exit codes of a command that runs until it is stopped, as shells report a signal (128 + its number), SIGTERM apart: 0. */
const EXIT_CODES: Readonly<Record<StopSignal, number>> = { SIGTERM: 0, SIGINT: 130, SIGHUP: 129 };

/** The signals that stop a long-running command: a service manager's, Ctrl-C, and a terminal (or ssh session) that went away. */
type StopSignal = 'SIGTERM' | 'SIGINT' | 'SIGHUP';

/** What `stopSignals` hands back. */
export interface StopSignals {
  /** Resolves with the exit code at the first SIGINT (130), SIGTERM (0) or SIGHUP (129). */
  stopped: Promise<number>;
  /**
   * Resolves at the next of those signals from now on: a command that is
   * already closing (stopped, or its host gone) races its cleanup against
   * it, so that a second signal is never ignored for as long as cleanup takes.
   */
  next(): Promise<number>;
  /** Takes the listeners off again, so the process's own handling of the signals is back. */
  release(): void;
}

/**
 * What a long-running command (`serve`, `inspect`) waits on. The listeners
 * stay until `release()`, which a command calls once its cleanup is done: a
 * signal that came in the middle of it would otherwise end the process with
 * its children still running.
 */
export function stopSignals(): StopSignals {
  let stop: (code: number) => void = () => undefined;
  const stopped = new Promise<number>((resolve) => (stop = resolve));
  let waiting: Array<(code: number) => void> = [];
  const listeners = (Object.keys(EXIT_CODES) as StopSignal[]).map((signal) => {
    const listener = (): void => {
      const code = EXIT_CODES[signal];
      stop(code);
      const woken = waiting;
      waiting = [];
      for (const wake of woken) wake(code);
    };
    process.on(signal, listener);
    return [signal, listener] as const;
  });
  return {
    stopped,
    next: () => new Promise<number>((resolve) => waiting.push(resolve)),
    release: () => {
      for (const [signal, listener] of listeners) process.off(signal, listener);
      waiting = [];
    },
  };
}
