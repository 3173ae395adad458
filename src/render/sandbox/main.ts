// The unsandboxed synth child (from the sources with tsx hooks): `node --import register-hooks.mjs main.ts <dir> <overlay>|--all`,
// with the frame's nonce on stdin and the frame on fd 3 (see run-child.ts).
// The renderer runs a bundle of the same code under Node's permission model instead (see bundle.ts).
import { runSynthChild } from './run-child.js';

await runSynthChild();
