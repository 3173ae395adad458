// Issue 31, Low 10: the per-overlay table of the pull-request preview wrote `kind` unescaped, so a
// kind `ConfigMap |\n\n<!--` ended the table and opened an HTML comment that hid the rest of the
// comment: an added ClusterRoleBinding to cluster-admin vanished, and the gate passed. Every value
// now enters the Markdown through one escaping builder, and such a binding is a high risk note.
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { gateFailures } from '../../src/report/preview/gate.js';
import { buildPreview } from '../../src/report/preview/preview.js';
import { PREVIEW_MARKER, previewMarkdown } from '../../src/report/preview/render-markdown.js';
import { setHash, toManifest } from '../../src/render/synth/manifest.js';
import type { SynthResult } from '../../src/render/synth/synthesize.js';

const md = new MarkdownIt({ html: true });

function result(objects: K8sObject[]): SynthResult {
  const manifests = objects.map((o) => toManifest(o, 'platform/app'));
  return { platform: 'p', overlay: 'dev', manifests, hash: setHash(manifests), warnings: [] };
}

const HOSTILE_KIND = 'ConfigMap |\n\n<!--';
const head = result([
  { apiVersion: 'v1', kind: HOSTILE_KIND, metadata: { name: 'hide', namespace: 'a' } },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'pwn' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'a' }],
  },
]);

describe('a kind that opens an HTML comment', () => {
  const preview = buildPreview({ base: [result([])], head: [head] });
  const markdown = previewMarkdown(preview);
  const tokens = md.parse(markdown, {});

  it('hides nothing: the comment has only the marker as an HTML comment', () => {
    const comments = tokens.filter(
      (t) => /<!--/.test(t.content) && (t.type === 'html_block' || t.type === 'html_inline'),
    );
    expect(comments.map((t) => t.content.trim())).toEqual([PREVIEW_MARKER]);
  });

  it('the per-kind table keeps one row per kind, four cells each, the binding included', () => {
    const rows: string[][] = [];
    let row: string[] | undefined;
    let body = false;
    for (const t of tokens) {
      if (t.type === 'tbody_open') body = true;
      if (t.type === 'tbody_close') break;
      if (t.type === 'tr_open' && body) row = [];
      if (t.type === 'tr_close' && row) {
        rows.push(row);
        row = undefined;
      }
      if (t.type === 'inline' && row) row.push(t.children!.map((c) => c.content).join(''));
    }
    expect(rows.map((r) => r.length)).toEqual([4, 4]);
    expect(rows.map((r) => r[0])).toEqual(expect.arrayContaining(['ClusterRoleBinding', 'ConfigMap | <!--']));
  });

  it('the binding is a high risk note, shown, and the gate fails', () => {
    const html = md.render(markdown);
    expect(html).toContain('grants cluster-admin');
    expect(html).toMatch(/ClusterRoleBinding\/pwn/);
    expect(preview.risks.high).toBe(1);
    expect(gateFailures(preview, 'warning')).toEqual(['1 high risk note(s)']);
  });
});
