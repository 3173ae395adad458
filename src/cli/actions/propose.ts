import { GroundworkError } from '../../core/errors.js';
import { proposePlatform } from '../../propose/propose-platform.js';
import { proposalSetJson, proposalSetText } from '../../propose/render-proposals.js';
import { SynthValidationError, formatIssue } from '../../render/synth/validation.js';
import type { SetExitCode } from '../commands/command-module.js';
import { ExitCode } from '../exit-code.js';
import { outputOf } from '../output.js';
import { render } from '../render.js';

export interface ProposeFlags {
  dryRun?: boolean;
  dir: string;
  environment?: string;
  trustRepository?: boolean;
  output?: string;
  format?: string;
}

/**
 * `groundwork propose --dry-run`: prints the proposal set (exit 0, refusals included: a refusal is
 * an answer, not a failure); exit 2 when the platform does not synthesize. Without `--dry-run`
 * nothing is published yet from here: the forge side (docs/propose.md) does that.
 */
export async function runPropose(flags: ProposeFlags, setExitCode: SetExitCode): Promise<void> {
  if (!flags.dryRun)
    throw new GroundworkError({
      code: 'MissingFlag',
      subject: 'propose',
      message: 'publishing proposals needs a forge',
      fix: 'pass --dry-run to print the proposals (docs/propose.md)',
    });
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
  const json = proposalSetJson(set);
  process.stdout.write(render(json, outputOf(flags), { text: () => proposalSetText(set) }));
  setExitCode(ExitCode.Ok);
}
