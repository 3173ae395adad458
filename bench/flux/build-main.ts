// `npx tsx bench/flux/build-main.ts`: builds (or finds) kustomize-controller and prints where it is.
import { ensureFluxBuild } from './build.js';

process.stdout.write(`${JSON.stringify(await ensureFluxBuild())}\n`);
