import { GroundworkError } from '../../core/errors.js';
import { serveRepository } from '../../dev/serve-repository.js';

export interface GitServeFlags {
  port: string;
  /** `--no-token` sets it false. */
  token: boolean;
}

/**
 * `groundwork git serve [dir]`: serves the repository holding `dir` read-only on 127.0.0.1
 * (`serveRepository`), prints the URL and the agent command to use it (with the token, shown
 * only there), and serves until SIGINT or SIGTERM. Commits are served, not the work tree: a
 * dirty tree is said. Throws `InvalidFlag` for a port that is not 0 to 65535.
 */
export async function runGitServe(dir: string, flags: GitServeFlags): Promise<void> {
  const port = Number(flags.port);
  if (!/^\d{1,5}$/.test(flags.port) || port > 65_535)
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: '--port',
      message: 'not a port',
      fix: 'give 1 to 65535, or 0 for a free one',
    });
  const served = await serveRepository({ dir, port, token: flags.token });
  const refs = [
    served.branches.length ? `branches ${served.branches.join(', ')}` : 'no branches yet',
    ...(served.tags.length ? [`tags ${served.tags.join(', ')}`] : []),
  ].join('; ');
  const agent = [
    ...(served.token ? [`GROUNDWORK_GIT_TOKEN=${served.token}`] : []),
    'groundwork agent',
    `--repo ${served.url}`,
    ...(served.prefix ? [`--path ${served.prefix.replace(/\/$/, '')}`] : []),
    '--overlay <overlay> --kubeconfig <file>',
  ].join(' ');
  process.stdout.write(
    [
      `Serving ${served.gitDir} read-only (${refs}) at`,
      `  ${served.url}`,
      ...(served.dirty
        ? ['Note: uncommitted changes are not served; commit them for the agent to see them.']
        : []),
      '',
      'Point an agent on this machine at it:',
      `  ${agent}`,
      ...(served.token
        ? ['(every request needs the token: it is shown only here, and a new one is made at each start)']
        : ['(no token: any local user can read the repository)']),
      '',
      'Ctrl-C stops it.',
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await served.stop();
}
