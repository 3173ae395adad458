import { errorMessage, hasCode } from '../../core/errors.js';
import { packageVersion } from '../../core/package-root.js';
import type { SetExitCode } from '../commands/command-module.js';
import { connectionOf } from '../cluster-flags.js';
import { ExitCode } from '../exit-code.js';
import { outputOf } from '../output.js';
import { render } from '../render.js';

/** What `groundwork version` reports. */
export interface VersionInfo {
  clientVersion: string;
  serverVersion?: string;
  /** Why there is no server version: no kubeconfig, or the server did not answer. */
  serverError?: string;
}

export interface VersionFlags {
  kubeconfig?: string;
  context?: string;
  client?: boolean;
  output?: string;
  format?: string;
}

/**
 * `groundwork version`: the client's version and, unless `--client`, the server's (its `/version`).
 * No kubeconfig is not an error (exit 0, said so); a configured server that does not answer is
 * (exit 2, with the reason). The Kubernetes client is loaded only when the server is asked.
 */
export async function runVersion(flags: VersionFlags, setExitCode: SetExitCode): Promise<void> {
  const info: VersionInfo = { clientVersion: packageVersion() };
  const unreachable = flags.client ? false : await addServerVersion(info, flags);
  process.stdout.write(
    render(info, outputOf(flags), {
      text: () =>
        [
          `Client Version: ${info.clientVersion}`,
          ...(flags.client
            ? []
            : [`Server Version: ${info.serverVersion ?? `unknown (${info.serverError})`}`]),
        ].join('\n'),
    }),
  );
  setExitCode(unreachable ? ExitCode.Error : ExitCode.Ok);
}

/** Asks the server for its version into `info`; true when a configured server did not answer. */
async function addServerVersion(info: VersionInfo, flags: VersionFlags): Promise<boolean> {
  const [{ KubeClient }, { versionInfoSchema }] = await Promise.all([
    import('../../cluster/client.js'),
    import('../../cluster/response-body.js'),
  ]);
  try {
    const client = await KubeClient.load({ ...connectionOf(flags), retries: 1 });
    try {
      info.serverVersion = (
        await client.request('GET', '/version', { noRetry: true, schema: versionInfoSchema })
      ).gitVersion;
    } finally {
      client.close();
    }
    return false;
  } catch (err) {
    const noConfig = hasCode(err, 'KubeconfigNotFound') && !flags.kubeconfig;
    if (hasCode(err, 'UnknownContext')) throw err;
    info.serverError = errorMessage(err);
    return !noConfig;
  }
}
