// Process entry of the compiled CLI (dist/src/cli/run.js), used by the container image:
// the same `main` as bin/groundwork.js, without the TypeScript loader for Groundwork itself.
import { main } from './main.js';

process.exitCode = await main(process.argv);
