import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../core/crd-dirs.js';
import { loadProjectConfig } from '../../project/config.js';
import { runCommand } from '../run-command.js';
import { revisionString } from '../../core/revision.js';

/** The example platform as the quick start commits it. */
export interface PublishedPlatform {
  /** Directory holding `platform.git`, a bare repository (serve it with the git smart-HTTP server). */
  served: string;
  /** The commit's revision as the agent reports it: `main@sha1:<hex>`. */
  revision: string;
  /** The platform's name in groundwork.yaml. */
  platform: string;
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Groundwork quick start',
  GIT_AUTHOR_EMAIL: 'quickstart@groundwork.invalid',
  GIT_COMMITTER_NAME: 'Groundwork quick start',
  GIT_COMMITTER_EMAIL: 'quickstart@groundwork.invalid',
};

/**
 * Commits this package's example platform (groundwork.yaml, platform/, overlays/, catalogs/) into a
 * new repository under `<root>/work` on branch `main`, and clones it bare to
 * `<root>/served/platform.git`. Writes only under `root`.
 */
export async function publishExamplePlatform(root: string): Promise<PublishedPlatform> {
  const work = join(root, 'work');
  for (const p of ['groundwork.yaml', 'platform', 'overlays', 'catalogs'])
    await cp(join(packageRoot, p), join(work, p), { recursive: true });
  await writeFile(join(work, 'package.json'), '{ "type": "module" }\n');
  const git = (args: string[], cwd = work) => runCommand('git', args, { cwd, env: GIT_ENV });
  await git(['init', '-q', '--initial-branch=main']);
  await git(['add', '.']);
  await git(['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'example platform']);
  const commit = (await git(['rev-parse', 'HEAD'])).trim();
  await git(['clone', '-q', '--bare', work, join(root, 'served', 'platform.git')], root);
  return {
    served: join(root, 'served'),
    revision: revisionString({ ref: 'main', commit }),
    platform: (await loadProjectConfig(work)).name,
  };
}
