#!/usr/bin/env node
// Entry point of the `groundwork` command. From an installed package it runs the bundled CLI in
// dist/cli/ (scripts/bundle-cli.mjs) as plain Node: no module hooks, since the CLI process runs
// no platform code (the synth child runs a bundle) and a hook would cost every import a round
// trip to the hooks thread. From a git checkout (src/ present) it runs the TypeScript sources
// through tsx, after the hooks of src/render/sandbox/register-hooks.mjs.
import { existsSync, readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered before anything loads: a terminal user asking for the version should not wait.
  process.stdout.write(
    `${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`,
  );
} else {
  // GROUNDWORK_RUN_FROM=dist runs a checkout's build (the benchmarks measure what users install).
  const fromSource =
    process.env.GROUNDWORK_RUN_FROM !== 'dist' && existsSync(new URL('../src/cli/main.ts', import.meta.url));
  if (fromSource) await import('../src/render/sandbox/register-hooks.mjs');
  const { main } = await import(fromSource ? '../src/cli/main.ts' : '../dist/cli/main.js');
  process.exitCode = await main(process.argv);
}
