#!/usr/bin/env node
// Entry point of the `groundwork` command. From an installed package it runs the bundled CLI in
// dist/cli/ (scripts/bundle-cli.mjs) as plain Node: no module hooks, since the CLI process runs
// no platform code (the synth child runs a bundle) and a hook would cost every import a round
// trip to the hooks thread. From a git checkout (src/ present) it runs the TypeScript sources
// through tsx, after the hooks of src/render/sandbox/register-hooks.mjs.
import { existsSync, readFileSync } from 'node:fs';

/**
 * What the build printed for exactly `args` (dist/cli/light-answers.json, written by
 * scripts/bundle-cli.mjs from the full CLI's own output: `--help`, `version --client`, `completion
 * <shell>`), or undefined: another command line, help for a terminal of another width than the
 * answer's, or a file that is missing or not as the build writes it (then the full CLI answers).
 */
function lightAnswer(args) {
  if (args.length === 0 || args.length > 2) return undefined;
  let table;
  try {
    table = JSON.parse(readFileSync(new URL('../dist/cli/light-answers.json', import.meta.url), 'utf8'));
  } catch {
    return undefined;
  }
  const answers = Array.isArray(table?.answers) ? table.answers : [];
  const found = answers.find(
    (a) => Array.isArray(a?.argv) && a.argv.length === args.length && a.argv.every((w, i) => w === args[i]),
  );
  if (typeof found?.stdout !== 'string') return undefined;
  if (found.width !== undefined && found.width !== (process.stdout.isTTY ? process.stdout.columns : 80))
    return undefined;
  return found.stdout;
}

const args = process.argv.slice(2);
// GROUNDWORK_RUN_FROM=dist runs a checkout's build (the benchmarks measure what users install).
const fromSource =
  process.env.GROUNDWORK_RUN_FROM !== 'dist' && existsSync(new URL('../src/cli/main.ts', import.meta.url));
const light = fromSource ? undefined : lightAnswer(args);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered before anything loads: a terminal user asking for the version should not wait.
  process.stdout.write(
    `${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`,
  );
} else if (light !== undefined) {
  // The same, for the other light commands: the bundled CLI's 0.2 MB of commander and command
  // declarations would cost more CPU than Node's own start.
  process.stdout.write(light);
} else {
  if (fromSource) await import('../src/render/sandbox/register-hooks.mjs');
  const { main } = await import(fromSource ? '../src/cli/main.ts' : '../dist/cli/main.js');
  process.exitCode = await main(process.argv);
}
