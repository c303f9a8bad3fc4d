// Preloaded (node -r) into each process bench/import-time.mjs starts: as the
// process exits, writes the CPU it used since it started (user and system,
// every thread, bootstrap included, as getrusage counts it) and its peak
// resident memory to file descriptor 3, which the bench reads.
'use strict';
const { writeSync } = require('node:fs');

process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  const { maxRSS } = process.resourceUsage();
  try {
    writeSync(3, JSON.stringify({ user, system, maxRSS }) + '\n');
  } catch {
    // Not started by the bench: nothing to report to.
  }
});
