// Prints one closing line in the plain "N passed, N failed" form that CI
// reads. It waits for process exit so that it comes after Jest's own summary.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    // A spec file that fails before any test runs (a missing module, a
    // throwing top level) counts as one failure, not as none.
    const broken = results.testResults.filter((file) => file.testExecError && file.numFailingTests === 0).length;
    const line = `tests: ${results.numPassedTests} passed, ${results.numFailedTests + broken} failed` + (skipped ? `, ${skipped} skipped` : '');
    process.once('exit', () => process.stdout.write(line + '\n'));
  }
}
module.exports = SummaryReporter;
