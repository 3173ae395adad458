// Starts a control plane, prints its PIDs as one JSON line, then ends the way argv[2] says:
// "throw" (an uncaught error) or "wait" (until a signal arrives).
import { LocalControlPlane } from '../../../../src/dev/controlplane/control-plane.js';

const cp = await LocalControlPlane.start();
process.stdout.write(`${JSON.stringify({ pids: cp.pids, etcdDir: cp.info.etcdDir })}\n`);
if (process.argv[2] === 'throw') {
  setTimeout(() => {
    throw new Error('boom: simulated crash');
  }, 10);
} else {
  setInterval(() => {}, 1000);
}
