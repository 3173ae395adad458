import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends every test run with one plain line, `N passed, N failed`, the contract `.ci/run` relies on.
 * Skipped or todo tests count as failed (CI must not pass by skipping); so do files that failed to
 * load and unhandled errors (each counts once).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    for (const mod of modules) {
      let tests = 0;
      for (const test of mod.children.allTests()) {
        tests++;
        if (test.result().state === 'passed') passed++;
        else failed++;
      }
      if (tests === 0 && mod.state() === 'failed') failed++;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
