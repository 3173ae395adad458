import type { PreviewData } from '../../report/preview/index.js';
import { previewMarkdown, previewText } from '../../report/preview/index.js';
import { gateFailures, type FailOn } from '../../report/preview/gate.js';
import type { SetExitCode } from '../commands/command-module.js';
import { ExitCode } from '../exit-code.js';
import { outputOf } from '../output.js';
import { render } from '../render.js';

/**
 * Prints a preview in the flags' format (markdown through `previewMarkdown`'s escaping builder)
 * and applies the gate: with `--fail-on`, each reason on stderr and exit 1 when it finds what it
 * names, else 0. The one tail of `groundwork preview` and `groundwork preview --from-json`.
 */
export function printPreview(
  preview: PreviewData,
  flags: { output?: string; format?: string; failOn?: FailOn },
  setExitCode: SetExitCode,
): void {
  process.stdout.write(
    render(preview, outputOf(flags), {
      text: () => previewText(preview),
      markdown: () => previewMarkdown(preview),
    }),
  );
  const failures = flags.failOn ? gateFailures(preview, flags.failOn) : [];
  for (const f of failures) process.stderr.write(`preview gate (--fail-on ${flags.failOn}): ${f}\n`);
  setExitCode(failures.length > 0 ? ExitCode.Changes : ExitCode.Ok);
}
