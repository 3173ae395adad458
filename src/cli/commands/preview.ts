import { Option, type Command } from 'commander';
import type { PreviewFlags } from '../actions/preview.js';
import { TRUST_REPOSITORY_FLAG } from '../cluster-flags.js';
import { GroundworkError } from '../../core/errors.js';
import { FAIL_ON } from '../../report/preview/gate.js';
import { withOutput } from '../output.js';
import type { CommandModule } from './command-module.js';

/**
 * `groundwork preview --base REV --head REV [--dir .] [--overlay NAME | --all-overlays]
 * [-o text|markdown|json|yaml]`: what merging head would change, per overlay, and what is risky.
 * Reads committed trees only (uncommitted changes are not part of any revision). Exit code 0 when
 * the preview was produced, including one that reports risks or a head that fails synth (the
 * preview says so), unless `--fail-on` names what it found: then 1 (the gate of a pull request);
 * 2 when it could not be produced (unknown revision, not a git repository). With `--from-json FILE`
 * it renders a preview another job wrote (`runPreviewFromJson`) instead of rendering revisions.
 */
export const registerPreview: CommandModule = (program: Command, setExitCode) => {
  withOutput(program.command('preview'), ['text', 'markdown', 'json', 'yaml'], 'text')
    .description(
      'preview what a change between two git revisions does to the synthesized platform, and its risks',
    )
    .option('--base <rev>', 'the revision merged into (e.g. origin/main); required without --from-json')
    .option('--head <rev>', 'the revision to preview (e.g. HEAD); required without --from-json')
    .addOption(
      new Option(
        '--from-json <file>',
        'render a preview another job wrote with -o json (read as data, checked, rendered again; nothing of the repository runs)',
      ).conflicts(['base', 'head', 'overlay', 'allOverlays']),
    )
    .option('--dir <dir>', 'platform repository root inside the git checkout (holds groundwork.yaml)', '.')
    .addOption(
      new Option(
        '--overlay <name>',
        "one overlay (default: head's groundwork.yaml defaultOverlay)",
      ).conflicts('allOverlays'),
    )
    .addOption(new Option('--all-overlays', 'every overlay of either revision').conflicts('overlay'))
    .addOption(
      new Option(
        '--fail-on <level>',
        'exit 1 when head fails synth (synth-error), or also has blocker notes (blocker), or also high/medium notes (warning)',
      ).choices([...FAIL_ON]),
    )
    .option(...TRUST_REPOSITORY_FLAG)
    .action(async (flags: PreviewFlags & { fromJson?: string }) => {
      if (flags.fromJson !== undefined)
        return (await import('../actions/preview-from-json.js')).runPreviewFromJson(
          { ...flags, fromJson: flags.fromJson },
          setExitCode,
        );
      for (const [flag, value] of [
        ['--base', flags.base],
        ['--head', flags.head],
      ] as const)
        if (!value)
          throw new GroundworkError({
            code: 'MissingFlag',
            subject: flag,
            message: 'is required',
            fix: 'pass --base and --head (e.g. --base origin/main --head HEAD), or --from-json FILE',
          });
      return (await import('../actions/preview.js')).runPreview(flags, setExitCode);
    });
};
