import type { ChartFiles } from './chart-files.js';

/** A chart's template files, its subcharts' included (`templates/a.yaml`, `charts/db/templates/s.yaml`). */
const TEMPLATE = /^(charts\/[^/]+\/)*templates\/.+\.(ya?ml|tpl|txt|json)$/;

/**
 * The template files of a chart (as `chartFiles` names them, subcharts included) whose text calls
 * the template function `fn` inside an action (`{{ ... fn ...`), sorted, at most `max`. Pure; it
 * reads text, it does not parse templates, so a call inside a template comment counts too.
 */
export function templatesCalling(files: ChartFiles['files'], fn: string, max = 5): string[] {
  const calls = new RegExp(`\\{\\{[^}]*\\b${fn}\\b`);
  return [...files.entries()]
    .filter(([path, text]) => TEMPLATE.test(path) && calls.test(text))
    .map(([path]) => path)
    .sort()
    .slice(0, max);
}
