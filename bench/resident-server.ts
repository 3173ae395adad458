// A prototype for `bench cli-resident` (issue 36), not the product: one warm process that runs the
// bundled CLI's `main` for each request on a Unix socket, one request at a time, with the request's
// directory and environment and its output sent back. It measures what a process that stays up
// between commands would cost per command; what a product version would need besides is in
// bench/results/cli-resident-prototype-2026-11-29.md.
// Usage: node dist/bench/resident-server.js <socket>   (prints `listening` when ready)
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Request {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}
type Main = (argv: string[]) => Promise<number>;

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const { loadBundledCli } = require(join(root, 'bin', 'bundled-cli.js')) as {
  loadBundledCli: (packageRoot: string, argv: string[]) => { main: Main };
};
const { main } = loadBundledCli(root, ['node', 'groundwork', 'plan']);
const socket = process.argv[2]!;

async function serve(c: Socket, req: Request): Promise<void> {
  process.chdir(req.cwd);
  process.env = req.env;
  const [out, err] = [process.stdout.write, process.stderr.write];
  const send = (m: object) => c.write(`${JSON.stringify(m)}\n`);
  process.stdout.write = ((s: string | Uint8Array) => send({ o: String(s) })) as typeof process.stdout.write;
  process.stderr.write = ((s: string | Uint8Array) => send({ e: String(s) })) as typeof process.stderr.write;
  const before = process.cpuUsage();
  let code = 2;
  try {
    code = await main(req.argv);
  } catch (e) {
    send({ e: `${String(e)}\n` });
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  const used = process.cpuUsage(before);
  c.end(`${JSON.stringify({ code, cpuMs: (used.user + used.system) / 1000 })}\n`);
}

let queue = Promise.resolve();
rmSync(socket, { force: true });
createServer((c) => {
  let buf = '';
  c.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    const nl = buf.indexOf('\n');
    if (nl < 0) return;
    const req = JSON.parse(buf.slice(0, nl)) as Request;
    buf = '';
    queue = queue.then(() => serve(c, req));
  });
}).listen(socket, () => process.stdout.write('listening\n'));
