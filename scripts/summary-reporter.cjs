// Prints one closing line in the plain "N passed, N failed" form that CI
// reads. It waits for process exit so that it comes after Jest's own summary.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : '');
    process.once('exit', () => process.stdout.write(line + '\n'));
  }
}
module.exports = SummaryReporter;
