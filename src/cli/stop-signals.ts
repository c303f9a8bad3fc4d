/** The exit codes of a command that runs until it is stopped: 0 for SIGTERM, 130 for Ctrl-C (as shells report SIGINT). */
const STOPPED = 0;
const INTERRUPTED = 130;

/**
 * What a long-running command (`serve`, `inspect`) waits on: `stopped`
 * resolves with its exit code at the first SIGINT or SIGTERM. `release()`
 * takes the listeners off again; call it once the command is done, so the
 * process's own handling of the signals is back.
 */
export function stopSignals(): { stopped: Promise<number>; release(): void } {
  let stop: (code: number) => void = () => undefined;
  const stopped = new Promise<number>((resolve) => (stop = resolve));
  const onSigint = (): void => stop(INTERRUPTED);
  const onSigterm = (): void => stop(STOPPED);
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  return {
    stopped,
    release: () => {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
    },
  };
}
