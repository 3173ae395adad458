// The unsandboxed synth child (from the sources with tsx hooks): `node --import register-hooks.mjs main.ts <dir> <overlay>|--all`.
// `synthesizeInChild` runs a bundle of the same code under Node's permission model instead (see bundle.ts).
import { runChildToStdout } from './run-child.js';

await runChildToStdout();
