import type { AgentFlagText } from '../../agent/options.js';
import { agentOptionsOf } from '../../agent/options-schema.js';
import { startAgent } from '../../agent/start.js';
import { agentLogger, logFormatOf } from '../agent-log.js';

/** `groundwork agent`: starts the agent and runs it until SIGTERM or SIGINT, then stops it cleanly. */
export async function runAgent(flags: AgentFlagText): Promise<void> {
  const options = agentOptionsOf(flags, process.env);
  // JSON lines in a pod or a pipe; readable lines on a terminal (GROUNDWORK_LOG_FORMAT overrides).
  const format = logFormatOf(process.env, process.stdout.isTTY);
  const log = agentLogger({
    name: 'groundwork-agent',
    level: options.logLevel,
    format,
    colorize: format === 'pretty' && process.stdout.isTTY === true && !process.env.NO_COLOR,
  });
  const agent = await startAgent({ ...options, log });
  log.info(
    {
      port: agent.port,
      bind: options.http?.host,
      repo: options.repository.url.replace(/\/\/[^@/]*@/, '//'),
      overlay: options.overlay,
      mode: options.mode,
    },
    'agent started',
  );
  // SIGTERM/SIGINT: finish the objects being written, release the lease, exit cleanly.
  await new Promise<void>((resolve) => {
    const onSignal = (sig: string) => {
      log.info({ signal: sig }, 'stopping');
      resolve();
    };
    process.once('SIGTERM', () => onSignal('SIGTERM'));
    process.once('SIGINT', () => onSignal('SIGINT'));
  });
  await agent.stop();
  log.info('stopped');
}
