import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations on the page as it is now, as `id (n nodes)` strings;
 * axe is evaluated over the DevTools protocol, not as an inline script (the dashboard's
 * Content-Security-Policy allows none).
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(`${axeSource};0`);
  const result = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
      }
    ).axe;
    return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  return result
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.nodes} nodes)`);
}
