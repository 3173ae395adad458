// What a process that stays up between commands would give an unchanged `plan` and `drift` (issue
// 36): the 5-object platform of `bench cli`, applied, each command run three ways in the same
// rounds, interleaved: `kubectl diff --server-side -f` of the same objects, Groundwork as shipped (a
// fresh process), and Groundwork through a warm prototype process (bench/resident-server.ts) asked
// by a bare Node client. The last row's CPU is the client's and the server's for that command.
// Usage: npm run bench -- cli-resident [--reps 11]
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalControlPlane } from '../src/dev/controlplane/control-plane.js';
import { smallPlatform, writeRepository } from './cli-platforms.js';
import { cliTable, type CliRow, type Sample } from './cli-table.js';
import { timed } from './cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'groundwork.js');

/** The client: a bare CommonJS script, so that its start is Node's own. */
const CLIENT = `'use strict';
const c = require('node:net').connect(process.argv[2]);
c.write(JSON.stringify({ argv: ['node', 'groundwork', ...process.argv.slice(3)], cwd: process.cwd(), env: process.env }) + '\\n');
let buf = '';
c.on('data', (d) => {
  buf += d;
  for (let nl = buf.indexOf('\\n'); nl >= 0; nl = buf.indexOf('\\n')) {
    const m = JSON.parse(buf.slice(0, nl));
    buf = buf.slice(nl + 1);
    if (m.o !== undefined) process.stdout.write(m.o);
    else if (m.e !== undefined) process.stderr.write(m.e);
    else {
      process.exitCode = m.code;
      require('node:fs').writeFileSync(process.env.RESIDENT_CPU_FILE, String(m.cpuMs));
    }
  }
});
`;

export async function benchCliResident(opts: { reps?: number } = {}): Promise<string> {
  const reps = opts.reps ?? 11;
  const load0 = loadavg()[0]!;
  const cp = await LocalControlPlane.start();
  const work = await mkdtemp(join(tmpdir(), 'gw-bench-resident-'));
  const sock = join(work, 'resident.sock');
  const env = { ...process.env, KUBECONFIG: cp.info.kubeconfig, GROUNDWORK_RUN_FROM: 'dist' };
  const server = spawn(process.execPath, [join(root, 'dist', 'bench', 'resident-server.js'), sock], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const repo = join(work, 'repo');
    await writeRepository(repo, smallPlatform('bench-resident'));
    execFileSync(process.execPath, [bin, 'apply', '--dir', repo, '--no-wait'], { env, stdio: 'ignore' });
    const file = join(work, 'objects.yaml');
    await writeFile(file, execFileSync(process.execPath, [bin, 'synth', '--dir', repo], { env }));
    const client = join(work, 'client.cjs');
    await writeFile(client, CLIENT);
    await new Promise<void>((resolve, reject) => {
      server.stdout!.once('data', () => resolve());
      server.once('exit', (code) => reject(new Error(`the resident server exited ${code}`)));
    });
    const cpuFile = join(work, 'server-cpu');
    const viaServer = async (args: string[]): Promise<Sample> => {
      const s = await timed(process.execPath, [client, sock, ...args], {
        ...env,
        RESIDENT_CPU_FILE: cpuFile,
      });
      return { wallMs: s.wallMs, cpuMs: s.cpuMs + Number(readFileSync(cpuFile, 'utf8')) };
    };
    const commands = ['plan', 'drift'];
    const samples = commands.map(() => ({
      fresh: [] as Sample[],
      resident: [] as Sample[],
      kubectl: [] as Sample[],
    }));
    const floor: Sample[] = [];
    const kubectl = cp.info.binaries.kubectl!;
    // The output through the server is the fresh process's, byte for byte.
    for (const cmd of commands) {
      const [a, b] = [
        execFileSync(process.execPath, [bin, cmd, '--dir', repo], { env }).toString(),
        execFileSync(process.execPath, [client, sock, cmd, '--dir', repo], {
          env: { ...env, RESIDENT_CPU_FILE: cpuFile },
        }).toString(),
      ];
      if (a !== b)
        throw new Error(`${cmd} through the resident server printed other output:\n${a}\n---\n${b}`);
    }
    for (let rep = -1; rep < reps; rep++) {
      const keep = (list: Sample[], value: Sample) => rep >= 0 && list.push(value); // rep -1 warms up
      keep(floor, await timed(process.execPath, ['-e', '0'], env));
      for (const [i, cmd] of commands.entries()) {
        const args = [cmd, '--dir', repo];
        keep(samples[i]!.fresh, await timed(process.execPath, [bin, ...args], env));
        keep(samples[i]!.resident, await viaServer(args));
        keep(samples[i]!.kubectl, await timed(kubectl, ['diff', '--server-side', '-f', file], env, [0, 1]));
      }
    }
    const rows: CliRow[] = commands.flatMap((cmd, i) => [
      {
        label: `${cmd} (5 objects), a fresh process`,
        groundwork: `groundwork ${cmd} --dir <repo>`,
        kubectl: 'kubectl diff --server-side -f <file>',
        dist: samples[i]!.fresh,
        baseline: samples[i]!.kubectl,
        targetRatio: 2,
      },
      {
        label: `${cmd} (5 objects), through a resident process (prototype)`,
        groundwork: `client ${cmd} --dir <repo>`,
        kubectl: 'kubectl diff --server-side -f <file>',
        dist: samples[i]!.resident,
        baseline: samples[i]!.kubectl,
        targetRatio: 2,
      },
    ]);
    return [
      '## An unchanged plan and drift, fresh and through a resident process (prototype)',
      '',
      cliTable(rows, { reps, floor, load: [load0, loadavg()[0]!] }),
    ].join('\n');
  } finally {
    server.kill();
    await cp.stop();
    await rm(work, { recursive: true, force: true });
  }
}
