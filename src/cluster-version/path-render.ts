import type { UpdatePath, UpdatePathFound, UpdateStep } from './path.js';

/**
 * Plain-text rendering for terminals and logs.
 *
 * @example
 * Update 4.7.0 -> 4.8.54 in 2 steps (channel stable-4.8):
 *   1. 4.7.0 -> 4.7.60  patch
 *   2. 4.7.60 -> 4.8.54  minor
 */
export function renderUpdatePath(path: UpdatePath): string {
  if (!path.ok) return `No update from ${path.from} to ${path.to} (${path.reason}): ${path.message}`;
  if (path.steps.length === 0) return `Already at ${path.to}: nothing to update.`;
  const channel = path.channel ? ` (channel ${path.channel})` : '';
  const lines = [`Update ${path.from} -> ${path.to} in ${plural(path.steps.length, 'step')}${channel}:`];
  path.steps.forEach((step, i) => {
    const risks = step.conditional ? `  accepted risks: ${step.conditional.join(', ')}` : '';
    lines.push(`  ${i + 1}. ${step.from} -> ${step.to}  ${label(step)}${risks}`);
  });
  if (path.pausePools) lines.push(pauseSentence(path));
  return lines.join('\n');
}

/** Markdown rendering for pull-request comments and reports. */
export function updatePathMarkdown(path: UpdatePath): string {
  if (!path.ok) {
    return `### No update path ${path.from} → ${path.to}\n\n**${path.reason}**: ${escapeMd(path.message)}\n`;
  }
  const head = `### Update path ${path.from} → ${path.to}\n\n`;
  if (path.steps.length === 0) return `${head}Already at ${path.to}: nothing to update.\n`;
  const channel = path.channel ? `Channel \`${path.channel}\`, ` : '';
  const rows = path.steps.map(
    (s, i) =>
      `| ${i + 1} | ${s.from} | ${s.to} | ${label(s)} | ${s.conditional?.join(', ') ?? ''} | ${s.image ? `\`${s.image}\`` : ''} |`,
  );
  const table = [
    '| Step | From | To | Kind | Accepted risks | Image |',
    '| ---: | --- | --- | --- | --- | --- |',
    ...rows,
  ];
  const pause = path.pausePools ? `\n> **${pauseSentence(path)}**\n` : '';
  return `${head}${channel}${plural(path.steps.length, 'step')}.\n\n${table.join('\n')}\n${pause}`;
}

function label(step: UpdateStep): string {
  return step.rollback ? 'rollback' : step.kind;
}

function pauseSentence(path: UpdatePathFound): string {
  const p = path.pausePools!;
  return (
    `Control-plane-only EUS update: pause every non-master MachineConfigPool before step ${p.pauseBeforeStep + 1} ` +
    `and unpause them after step ${p.unpauseAfterStep + 1}; the workers then update once, to ${path.to}.`
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function escapeMd(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
