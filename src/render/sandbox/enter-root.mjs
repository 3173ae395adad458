// The renderer's driver (plain JavaScript, no dependencies): started by `unshare` as PID 1 of the
// renderer's namespaces with a plan (`rootPlan` in launch-plan.ts) as its one argument. It makes
// the plan's directories, files and links, runs its util-linux programs (argv arrays, no shell),
// then starts the renderer's command with this process's stdin, stdout, stderr and fd 3, and ends
// as it ends. A step that fails ends it with status 125 and one line on stderr, before anything of
// the repository runs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname } from 'node:path';

/** Takes one step; returns why it failed, or undefined. */
function take(step) {
  if (step.op === 'dir') mkdirSync(step.path, { recursive: true });
  else if (step.op === 'file') {
    if (!existsSync(step.path)) {
      mkdirSync(dirname(step.path), { recursive: true });
      writeFileSync(step.path, '');
    }
  } else if (step.op === 'link') {
    mkdirSync(dirname(step.path), { recursive: true });
    symlinkSync(step.target, step.path);
  } else if (step.op === 'run') {
    const r = spawnSync(step.argv[0], step.argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0)
      return `${step.argv.join(' ')}: ${r.error ? String(r.error) : r.stderr.toString().trim()}`;
  } else return `unknown step ${JSON.stringify(step.op)}`;
  return undefined;
}

/** The plan's steps; the exit status 125 with a line on stderr when one fails, else undefined. */
function prepare(plan) {
  for (const step of plan.steps ?? []) {
    let failed;
    try {
      failed = take(step);
    } catch (err) {
      failed = `${step.op} ${step.path ?? ''}: ${String(err)}`;
    }
    if (failed) {
      process.stderr.write(`groundwork renderer sandbox: ${failed}\n`);
      return 125;
    }
  }
  return undefined;
}

const plan = JSON.parse(process.argv[2] ?? '{}');
const failed = prepare(plan);
if (failed !== undefined) process.exitCode = failed;
else {
  const [command, ...args] = plan.exec ?? [];
  const child = spawn(command, args, { stdio: ['inherit', 'inherit', 'inherit', 'inherit'] });
  child.on('error', (err) => {
    process.stderr.write(`groundwork renderer sandbox: starting ${command}: ${String(err)}\n`);
    process.exitCode = 125;
  });
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? 128 + (constants.signals[signal] ?? 0);
  });
}
