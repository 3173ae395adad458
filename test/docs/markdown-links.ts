import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: true });

type Token = ReturnType<typeof md.parse>[number];

/**
 * GitHub's anchor for a heading's text (github-slugger): lower case, every character but letters,
 * marks, digits, `_`, `-` and spaces dropped, each space a `-` (runs are not collapsed).
 */
export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The text a heading shows: its words and code, without markup or HTML tags. */
function textOf(inline: Token): string {
  return (inline.children ?? [])
    .map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : ''))
    .join('');
}

/** `id` and `name` attributes of HTML in the page (`<a name="x">`): anchors too. */
function htmlAnchors(html: string): string[] {
  return [...html.matchAll(/<[a-z][^>]*?\s(?:id|name)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]!);
}

/** Every anchor a page has: its headings' slugs (a repeated one gets -1, -2, ...) and HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
  const tokens = md.parse(markdown, {});
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  tokens.forEach((t, i) => {
    if (t.type === 'heading_open') {
      const base = githubSlug(textOf(tokens[i + 1]!));
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    if (t.type === 'html_block' || t.type === 'html_inline')
      for (const a of htmlAnchors(t.content)) anchors.add(a);
    for (const c of t.children ?? [])
      if (c.type === 'html_inline') for (const a of htmlAnchors(c.content)) anchors.add(a);
  });
  return anchors;
}

/** A link in a page: its target as written and the line (1-based) it is on. */
export interface Link {
  readonly target: string;
  readonly line: number;
}

/** Every link and image of a page (markdown and HTML `href`/`src`), not those in code. */
export function linksOf(markdown: string): Link[] {
  const out: Link[] = [];
  let line = 1;
  const html = (content: string, at: number) => {
    for (const m of content.matchAll(/\s(?:href|src)\s*=\s*["']([^"']+)["']/gi))
      out.push({ target: m[1]!, line: at + (content.slice(0, m.index).match(/\n/g)?.length ?? 0) });
  };
  for (const t of md.parse(markdown, {})) {
    if (t.map) line = t.map[0] + 1;
    if (t.type === 'html_block') html(t.content, line);
    let offset = 0;
    for (const c of t.children ?? []) {
      if (c.type === 'softbreak' || c.type === 'hardbreak') offset++;
      const target =
        c.type === 'link_open' ? c.attrGet('href') : c.type === 'image' ? c.attrGet('src') : null;
      if (target !== null) out.push({ target: String(target), line: line + offset });
      if (c.type === 'html_inline') html(c.content, line + offset);
    }
  }
  return out;
}

/**
 * The broken relative links and anchors of `files` (paths from `root`), each as
 * `file:line: target: why`. A target with a scheme (`https:`, `mailto:`) is not checked; `/x` is
 * from the repository root; an anchor is checked in Markdown pages, and `#L<n>` in other files as
 * a line that exists.
 */
export function brokenLinks(root: string, files: readonly string[]): string[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, 'utf8')));
    return anchorCache.get(file)!;
  };
  const broken: string[] = [];
  for (const file of files) {
    const abs = join(root, file);
    for (const { target, line } of linksOf(readFileSync(abs, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
      const report = (why: string) => broken.push(`${file}:${line}: ${target}: ${why}`);
      const hash = target.indexOf('#');
      const pathPart = decodeURIComponent((hash < 0 ? target : target.slice(0, hash)).split('?')[0]!);
      const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const dest =
        pathPart === ''
          ? abs
          : pathPart.startsWith('/')
            ? join(root, pathPart)
            : resolve(dirname(abs), pathPart);
      if (relative(root, dest).startsWith('..')) {
        report('leads out of the repository');
        continue;
      }
      if (!existsSync(dest)) {
        report(`no file ${relative(root, dest)}`);
        continue;
      }
      if (anchor === undefined || anchor === '' || statSync(dest).isDirectory()) continue;
      if (dest.endsWith('.md')) {
        if (!anchors(dest).has(anchor)) report(`no heading #${anchor} in ${relative(root, dest)}`);
      } else {
        const lines = /^L(\d+)(?:-L(\d+))?$/.exec(anchor);
        const text = readFileSync(dest, 'utf8');
        const count = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
        if (!lines) report(`#${anchor}: only #L<line> anchors point into ${relative(root, dest)}`);
        else if (Number(lines[2] ?? lines[1]) > count) report(`${relative(root, dest)} has ${count} lines`);
      }
    }
  }
  return broken;
}
