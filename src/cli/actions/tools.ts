import { GroundworkError, errorMessage } from '../../core/errors.js';
import { TOOL_NAMES, TOOL_RECIPES, type ToolName } from '../../tools/recipes.js';
import { resolveTool, type ResolvedTool } from '../../tools/resolve-tool.js';
import type { SetExitCode } from '../commands/command-module.js';
import { ExitCode } from '../exit-code.js';
import { outputOf } from '../output.js';
import { terminalProgress } from '../progress.js';
import { render } from '../render.js';

export interface ToolsFlags {
  output?: string;
  format?: string;
  quiet?: boolean;
}

/** One row of `tools list` / `tools build`. */
interface ToolRow {
  name: ToolName;
  pinned: string;
  source: ResolvedTool['source'] | 'missing';
  version?: string;
  path?: string;
  error?: string;
}

/** `groundwork tools list`: where each tool would come from; builds nothing. */
export async function runToolsList(flags: ToolsFlags, setExitCode: SetExitCode): Promise<void> {
  const rows = await Promise.all(TOOL_NAMES.map((name) => rowOf(name, false)));
  print(rows, flags);
  setExitCode(rows.some((r) => r.error && r.source !== 'missing') ? ExitCode.Error : ExitCode.Ok);
}

/** `groundwork tools build [names...]`: resolves each (building the pinned release when nothing fits). */
export async function runToolsBuild(
  names: string[],
  flags: ToolsFlags,
  setExitCode: SetExitCode,
): Promise<void> {
  const unknown = names.filter((n) => !(TOOL_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new GroundworkError({
      code: 'Usage',
      subject: unknown.join(', '),
      message: 'is not a tool Groundwork builds',
      fix: `name one of: ${TOOL_NAMES.join(', ')}`,
    });
  const wanted = (names.length > 0 ? names : TOOL_NAMES) as ToolName[];
  const rows: ToolRow[] = [];
  // One at a time: each build uses every core.
  for (const name of wanted) rows.push(await rowOf(name, true, flags.quiet));
  print(rows, flags);
  setExitCode(rows.some((r) => r.error) ? ExitCode.Error : ExitCode.Ok);
}

async function rowOf(name: ToolName, build: boolean, quiet = false): Promise<ToolRow> {
  const pinned = TOOL_RECIPES[name].version;
  try {
    const tool = await resolveTool(name, { build, progress: terminalProgress({ quiet }) });
    return { name, pinned, source: tool.source, version: tool.version, path: tool.path };
  } catch (err) {
    const missing =
      !build &&
      err instanceof GroundworkError &&
      err.code === 'ToolNotUsable' &&
      !process.env[TOOL_RECIPES[name].envVar];
    return { name, pinned, source: 'missing', error: missing ? 'not built yet' : errorMessage(err) };
  }
}

function print(rows: ToolRow[], flags: ToolsFlags): void {
  process.stdout.write(
    render(rows, outputOf(flags), {
      text: () =>
        columns([
          ['TOOL', 'PINNED', 'SOURCE', 'VERSION', 'PATH'],
          ...rows.map((r) => [r.name, r.pinned, r.source, r.version ?? '', r.path ?? r.error ?? '']),
        ]),
    }),
  );
}

/** Rows as aligned columns, the last one unpadded. */
function columns(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  '))
    .join('\n');
}
