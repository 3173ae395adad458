import { proposePlatform } from '../../propose/propose-platform.js';
import { proposalSetJson, proposalSetText } from '../../propose/render-proposals.js';
import { SynthValidationError, formatIssue } from '../../render/synth/validation.js';
import type { SetExitCode } from '../commands/command-module.js';
import { ExitCode } from '../exit-code.js';
import { outputOf } from '../output.js';
import type { ProposePublishFlags } from '../propose-publish-flags.js';
import { runProposePublish, takeForgeToken } from './propose-publish.js';
import { render } from '../render.js';

export interface ProposeFlags extends Omit<ProposePublishFlags, 'dir'> {
  dryRun?: boolean;
  dir: string;
  environment?: string;
  trustRepository?: boolean;
  output?: string;
  format?: string;
}

/**
 * `groundwork propose --dry-run`: prints the proposal set (exit 0, refusals included: a refusal is
 * an answer, not a failure); exit 2 when the platform does not synthesize. Without `--dry-run` the
 * set is published as pull requests (`runProposePublish`, docs/propose.md): the forge token is
 * taken before the platform renders.
 */
export async function runPropose(flags: ProposeFlags, setExitCode: SetExitCode): Promise<void> {
  // Publishing: the flags checked and the token taken before anything renders (propose-publish.ts).
  const token = flags.dryRun ? undefined : takeForgeToken(flags);
  let set;
  try {
    set = await proposePlatform(flags.dir, {
      ...(flags.environment !== undefined ? { environment: flags.environment } : {}),
      ...(flags.trustRepository ? { trustRepository: true } : {}),
    });
  } catch (err) {
    if (!(err instanceof SynthValidationError)) throw err;
    process.stderr.write(`${err.issues.map(formatIssue).join('\n')}\n`);
    setExitCode(ExitCode.Error);
    return;
  }
  if (token !== undefined) {
    await runProposePublish(set, flags, token, setExitCode);
    return;
  }
  const json = proposalSetJson(set);
  process.stdout.write(render(json, outputOf(flags), { text: () => proposalSetText(set) }));
  setExitCode(ExitCode.Ok);
}
