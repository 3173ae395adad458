#!/usr/bin/env node
// Entry point of the `groundwork` command. From an installed package it runs the bundled CLI in
// dist/cli/ (scripts/bundle-cli.mjs) as plain Node: no module hooks, since the CLI process runs
// no platform code (the synth child runs a bundle) and a hook would cost every import a round
// trip to the hooks thread. From a git checkout (src/ present) it runs the TypeScript sources
// through tsx, after the hooks of src/render/sandbox/register-hooks.mjs.
//
// A CommonJS script (bin/package.json), not an ES module: Node starts a CommonJS entry ~4 ms of CPU
// sooner, which is most of what the light commands below cost above Node's own start.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const packageRoot = join(__dirname, '..');

/** A command that ends sooner than this (seconds since the process started) writes its code cache. */
const SHORT_COMMAND_S = 10;

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
    table = JSON.parse(readFileSync(join(packageRoot, 'dist', 'cli', 'light-answers.json'), 'utf8'));
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

/**
 * Runs the CLI: the sources through tsx in a checkout, else the bundle through its code cache
 * (bin/bundled-cli.js), whose cache is written once the command has done its work.
 */
async function runCli(fromSource) {
  if (fromSource) {
    const { pathToFileURL } = require('node:url');
    const url = (path) => pathToFileURL(join(packageRoot, path)).href;
    await import(url('src/render/sandbox/register-hooks.mjs'));
    const { main } = await import(url('src/cli/main.ts'));
    process.exitCode = await main(process.argv);
    return;
  }
  const { main, save } = require('./bundled-cli.js').loadBundledCli(packageRoot, process.argv);
  const code = await main(process.argv);
  process.exitCode = code;
  // Only after a short command that did its work (0: nothing to change, 1: changes or drift
  // found): a refused or failed one (2, an error) leaves nothing behind, a code cache included; and
  // a long-running one (the agent, the dashboard, the simulators), whose start is a negligible share
  // of its run, would write it as it stops, racing whatever removes its home after it.
  if ((code === 0 || code === 1) && process.uptime() < SHORT_COMMAND_S) save();
}

const args = process.argv.slice(2);
// GROUNDWORK_RUN_FROM=dist runs a checkout's build (the benchmarks measure what users install).
const fromSource =
  process.env.GROUNDWORK_RUN_FROM !== 'dist' && existsSync(join(packageRoot, 'src', 'cli', 'main.ts'));
const light = fromSource ? undefined : lightAnswer(args);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered before anything loads: a terminal user asking for the version should not wait.
  process.stdout.write(`${JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')).version}\n`);
} else if (light !== undefined) {
  // The same, for the other light commands: the bundled CLI's 0.2 MB of commander and command
  // declarations would cost more CPU than Node's own start.
  process.stdout.write(light);
} else {
  runCli(fromSource).catch((err) => {
    // What a top-level await in an ES module entry would print: the stack, exit code 1.
    process.exitCode = 1;
    console.error(err);
  });
}
