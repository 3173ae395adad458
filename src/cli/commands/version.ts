import type { Command } from 'commander';
import { KubeClient } from '../../cluster/client.js';
import { versionInfoSchema } from '../../cluster/response-body.js';
import { errorMessage, hasCode } from '../../core/errors.js';
import { packageVersion } from '../../core/package-root.js';
import { ExitCode } from '../exit-code.js';
import { outputOf, render, withOutput } from '../output.js';
import type { CommandModule } from './command-module.js';

/** What `groundwork version` reports. */
export interface VersionInfo {
  clientVersion: string;
  serverVersion?: string;
  /** Why there is no server version: no kubeconfig, or the server did not answer. */
  serverError?: string;
}

/**
 * `groundwork version`: the client's version and, when a kubeconfig is found, the server's (its
 * `/version`), as `kubectl version` does. No kubeconfig is not an error (exit 0, said so); a
 * configured server that does not answer is (exit 2, with the reason).
 */
export const registerVersion: CommandModule = (program: Command, setExitCode) => {
  withOutput(program.command('version'), ['text', 'json', 'yaml'], 'text')
    .description('print the client version and, with a kubeconfig, the server version')
    .option('--kubeconfig <file>', 'kubeconfig (default: $KUBECONFIG, ~/.kube/config, in-cluster)')
    .option('--context <name>', 'kubeconfig context')
    .option('--client', 'client version only')
    .action(
      async (flags: {
        kubeconfig?: string;
        context?: string;
        client?: boolean;
        output?: string;
        format?: string;
      }) => {
        const info: VersionInfo = { clientVersion: packageVersion() };
        let unreachable = false;
        if (!flags.client) {
          try {
            const client = await KubeClient.load({
              ...(flags.kubeconfig ? { kubeconfig: flags.kubeconfig } : {}),
              ...(flags.context ? { context: flags.context } : {}),
              retries: 1,
            });
            try {
              info.serverVersion = (
                await client.request('GET', '/version', { noRetry: true, schema: versionInfoSchema })
              ).gitVersion;
            } finally {
              client.close();
            }
          } catch (err) {
            const noConfig = hasCode(err, 'KubeconfigNotFound') && !flags.kubeconfig;
            if (hasCode(err, 'UnknownContext')) throw err;
            unreachable = !noConfig;
            info.serverError = errorMessage(err);
          }
        }
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
      },
    );
};
