// A global setup of both vitest projects: builds this checkout's CLI for the run (`cli-build.ts`),
// or finds the build of the same sources, and names it to the test workers (`TEST_CLI`), whose
// `BIN` (`cli.ts`) is then that build's `bin/groundwork.js`.
import { buildTestCli, TEST_CLI } from './cli-build.js';
import { recordBuild } from './test-run.js';

export default async function setup(): Promise<void> {
  if (process.env[TEST_CLI]) return;
  const { bin, built, ms } = await buildTestCli();
  recordBuild({ what: 'groundwork CLI', how: built ? 'built' : 'cached', ms });
  process.env[TEST_CLI] = bin;
}
