// The run's one Chromium (`node browser-server.mjs <out file> <chromium binary>`, started detached by
// test/harness/browser.ts): a playwright browser server, headless, as `chromium.launch` would start
// it. Once it listens, writes `{ wsEndpoint, browserPid }` to the out file (atomically); on SIGTERM
// or SIGINT closes the browser and exits. Test files connect with `chromium.connect(wsEndpoint)`;
// their `browser.close()` closes only their own contexts and disconnects.
import { renameSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [out, executablePath] = process.argv.slice(2);
const server = await chromium.launchServer({
  executablePath,
  args: ['--no-sandbox'],
  handleSIGTERM: false,
  handleSIGINT: false,
});
let closing = false;
const stop = async () => {
  if (closing) return;
  closing = true;
  await server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
writeFileSync(
  `${out}.tmp`,
  JSON.stringify({ wsEndpoint: server.wsEndpoint(), browserPid: server.process().pid }),
);
renameSync(`${out}.tmp`, out);
