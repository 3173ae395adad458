#!/usr/bin/env node
// Entry point for `npx groundwork`: loads the TypeScript sources through tsx (and lets platform
// code anywhere import 'groundwork-gitops', 'cdk8s' and 'zod' from this install), so the same code runs
// from a git checkout, an npm install and the container image.
import '../src/synth/child/register-hooks.mjs';

const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
