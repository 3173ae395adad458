#!/usr/bin/env node
// Entry point for `npx groundwork`: loads the TypeScript sources through tsx,
// so the same code runs from a git checkout, an npm install and the container image.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
