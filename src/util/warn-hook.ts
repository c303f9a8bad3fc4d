/**
 * The caller's `onWarn`, made safe to call anywhere. Warnings are raised by
 * what a server sends, inside stream handlers and promise chains nobody
 * awaits, where a hook that throws would become an uncaught exception or an
 * unhandled rejection (Node's default for either: the process exits). What
 * the hook throws has nowhere left to be reported, so it is dropped.
 */
export function warnHook(onWarn: ((message: string) => void) | undefined): (message: string) => void {
  if (!onWarn) return () => undefined;
  return (message) => {
    try {
      onWarn(message);
    } catch {
      // Dropped: see above.
    }
  };
}
