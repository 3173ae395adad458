import { describe, expect, it } from 'vitest';
import { GroundworkError } from '../../../src/core/errors.js';
import {
  PREVIEW_MARKER,
  buildPreview,
  previewMarkdown,
  previewText,
} from '../../../src/report/preview/index.js';
import { SynthValidationError } from '../../../src/render/synth/validation.js';
import { clusterVersion, configMap, namespace, result, subscription } from './helpers.js';

const revs = {
  baseRevision: { ref: 'main', oid: 'a'.repeat(40) },
  headRevision: { ref: 'feature', oid: 'b'.repeat(40) },
};
const base = [
  result('prod', [
    namespace('app'),
    configMap('c', 'app', { k: 'v1' }),
    clusterVersion('4.14.38', 'stable-4.14'),
  ]),
];
const head = [
  result('prod', [
    namespace('app'),
    configMap('c', 'app', { k: 'v2' }),
    clusterVersion('4.16.1', 'stable-4.16'),
    subscription('op', {}),
  ]),
];
const invalid = new SynthValidationError([
  {
    path: 'platform/kepler',
    field: 'pin',
    message: 'kepler-operator.v9.9.9 is not in channel alpha',
    fix: 'pick a CSV of the channel',
    severity: 'error',
  },
  {
    path: 'overlays/prod.yaml:3',
    field: 'clusterVersion.version',
    message: 'must be a full semantic version',
    severity: 'error',
  },
  { path: 'platform/gitops', field: 'channel', message: 'channel latest is deprecated', severity: 'warning' },
]);

describe('buildPreview', () => {
  it('compares per overlay: counts by kind, diffs, risks worst first', () => {
    const p = buildPreview({ base, head, ...revs });
    expect(p.status).toBe('ok');
    const [prod] = p.overlays;
    expect(prod!.status).toBe('changed');
    expect(prod!.summary).toEqual([
      { kind: 'ConfigMap', added: 0, changed: 1, removed: 0 },
      { kind: 'Subscription', added: 1, changed: 0, removed: 0 },
      { kind: 'ClusterVersion', added: 0, changed: 1, removed: 0 },
    ]);
    expect(prod!.changes.map((c) => `${c.action} ${c.object}`)).toEqual([
      'changed ConfigMap/app/c',
      'added Subscription/op/op',
      'changed ClusterVersion/version',
    ]);
    expect(prod!.changes[0]!.diff).toContain('-  k: v1\n+  k: v2\n');
    expect(prod!.risks.map((r) => r.code)).toEqual([
      'ClusterVersionSkipsMinors',
      'ClusterVersionChannel',
      'SubscriptionAdded',
    ]);
    expect(p.risks).toEqual({ blocker: 1, high: 0, medium: 1, low: 1, info: 0 });
  });

  it('renders Markdown for the PR comment: marker first, risks, table, folded diffs', () => {
    const md = previewMarkdown(buildPreview({ base, head, ...revs }));
    expect(md.startsWith(`${PREVIEW_MARKER}\n`)).toBe(true);
    expect(md).toContain('Base `main` (`aaaaaaa`) → head `feature` (`bbbbbbb`).');
    expect(md).toContain('**Risks:** 1 blocker, 1 medium, 1 low.');
    // Each note and each changed object names the construct path that emits it.
    expect(md).toContain(
      '- **blocker** `ClusterVersion/version` (from `platform/ClusterVersion/version`): target 4.14.38 → 4.16.1 skips 4.15',
    );
    expect(md).toContain(
      '<details><summary><b>changed</b> <code>ConfigMap/app/c</code> from <code>platform/ConfigMap/c</code></summary>\n\n```diff\n--- base/ConfigMap/app/c\n+++ head/ConfigMap/app/c\n',
    );
  });

  it('names a revision given as a commit id by its short id only', () => {
    const md = previewMarkdown(
      buildPreview({
        base,
        head,
        baseRevision: { ref: 'aaaaaaaa', oid: 'a'.repeat(40) },
        headRevision: { ref: 'HEAD' },
      }),
    );
    expect(md).toContain('Base `aaaaaaa` → head `HEAD`.');
  });

  it('serializes to the versioned JSON document, without the renderings', () => {
    const p = buildPreview({ base, head, ...revs });
    const json = JSON.parse(JSON.stringify(p)) as Record<string, unknown>;
    expect(json).toMatchObject({
      apiVersion: 'groundwork.io/v1',
      kind: 'Preview',
      status: 'ok',
      base: { revision: revs.baseRevision },
      head: { revision: revs.headRevision },
    });
    expect(Object.keys(json)).toEqual(['apiVersion', 'kind', 'status', 'base', 'head', 'risks', 'overlays']);
    expect(previewMarkdown(json as never)).toBe(previewMarkdown(p));
  });

  it('a head that fails synth: only that failure, with every issue, path and fix', () => {
    const p = buildPreview({ base, head: invalid, ...revs });
    expect(p.status).toBe('head-failed');
    expect(p.overlays).toEqual([]);
    expect(p.head.failure!.issues).toHaveLength(3);
    const md = previewMarkdown(p);
    expect(md).toContain('## Groundwork preview: head does not synthesize');
    expect(md).toContain(
      '> [!CAUTION]\n> Head `feature` (`bbbbbbb`) fails synth (ValidationFailed: 2 validation errors).',
    );
    expect(md).toContain(
      '- **error** `platform/kepler` `pin`: kepler-operator.v9.9.9 is not in channel alpha\n  - fix: pick a CSV of the channel',
    );
    expect(md).toContain(
      '- **error** `overlays/prod.yaml:3` `clusterVersion.version`: must be a full semantic version',
    );
    expect(md).toContain('- **warning** `platform/gitops` `channel`');
    expect(md).not.toContain('Overlay');
    expect(md).not.toContain('<details>');
    const text = previewText(p);
    expect(text).toContain('HEAD FAILS SYNTH (ValidationFailed: 2 validation errors)');
    expect(text).toContain(
      'error: platform/kepler: pin: kepler-operator.v9.9.9 is not in channel alpha (fix: pick a CSV of the channel)',
    );
  });

  it('a head that fails to compile: the message in a block, and the fix', () => {
    const err = new GroundworkError({
      code: 'CompileFailed',
      subject: 'platform/main.ts',
      message: "Transform failed:\nplatform/main.ts:3:1: ERROR: Unexpected '}'",
      fix: 'fix the TypeScript error above',
    });
    const md = previewMarkdown(buildPreview({ base, head: err }));
    expect(md).toContain('fails synth (CompileFailed)');
    expect(md).toContain(
      "```text\nplatform/main.ts: Transform failed:\nplatform/main.ts:3:1: ERROR: Unexpected '}'\n```",
    );
    expect(md).toContain('Fix: fix the TypeScript error above');
  });

  it('a base that fails synth: compared against an empty base, and says so', () => {
    const p = buildPreview({ base: invalid, head, ...revs });
    expect(p.status).toBe('ok');
    // Every object is added, except the ClusterVersion: the cluster has one, which Groundwork adopts.
    const changes = p.overlays[0]!.changes;
    expect(changes.filter((c) => c.action !== 'added').map((c) => [c.object, c.action])).toEqual([
      ['ClusterVersion/version', 'changed'],
    ]);
    expect(changes.find((c) => c.kind === 'ClusterVersion')!.diff).toMatch(
      /^--- cluster\/ClusterVersion\/version \(adopted: only the fields below are set\)\n\+\+\+ head\/ClusterVersion\/version\n/,
    );
    expect(previewText(p)).toContain('    ~ ClusterVersion/version (from ');
    expect(previewText(p)).not.toContain('+ ClusterVersion/version');
    expect(p.overlays[0]!.risks.map((r) => r.code)).toContain('ClusterVersionTargetAdded');
    const md = previewMarkdown(p);
    expect(md).toContain(
      '> [!WARNING]\n> Base `main` (`aaaaaaa`) fails synth (ValidationFailed: 2 validation errors), so this preview compares head against an empty base',
    );
    expect(md).toContain('<details><summary>Why base fails</summary>');
    expect(previewText(p)).toContain(
      'base fails synth (ValidationFailed: 2 validation errors): comparing against an empty base',
    );
  });

  it('overlays: unchanged, new in head, removed from head', () => {
    const p = buildPreview({
      base: [...base, result('old', [namespace('x')])],
      head: [...base, result('new', [namespace('y')])],
    });
    expect(p.overlays.map((o) => [o.overlay, o.status])).toEqual([
      ['new', 'added'],
      ['old', 'removed'],
      ['prod', 'unchanged'],
    ]);
    expect(p.overlays[1]!.risks.map((r) => r.code)).toEqual(['OverlayRemoved']);
    const md = previewMarkdown(p);
    expect(md).toContain('| `new` (new) | 1 | 0 | 0 | none |');
    expect(md).toContain('| `old` (removed) | 0 | 0 | 0 | 1 high |');
    expect(md).toContain('### Overlay `prod`: no changes');
  });

  it('stays under the size budget by leaving out diffs, never risks', () => {
    const big = (v: string) => [
      result(
        'prod',
        Array.from({ length: 40 }, (_, i) => configMap(`c${i}`, 'app', { data: `${v}\n`.repeat(50) })),
      ),
    ];
    const md = previewMarkdown(buildPreview({ base: big('a'), head: big('b') }), { maxLength: 8000 });
    expect(md.length).toBeLessThanOrEqual(8000);
    expect(md).toContain('(diff left out)');
    expect(md).toMatch(/_\d+ diffs left out to stay under GitHub's comment size limit/);
    expect(md).toContain('<details>');
  });

  it('drops the per-object lists, then cuts, when even those do not fit', () => {
    const many = (v: string) => [
      result(
        'prod',
        Array.from({ length: 300 }, (_, i) => configMap(`config-${i}`, 'app', { k: v })),
      ),
    ];
    const lists = previewMarkdown(buildPreview({ base: many('a'), head: many('b') }), { maxLength: 5000 });
    expect(lists.length).toBeLessThanOrEqual(5000);
    expect(lists).toContain('| ConfigMap | 0 | 300 | 0 |');
    expect(lists).toContain("_300 changed objects left out to stay under GitHub's comment size limit");
    const cut = previewMarkdown(buildPreview({ base: many('a'), head: [result('prod', [])] }), {
      maxLength: 3000,
    });
    expect(cut.length).toBeLessThanOrEqual(3000);
    expect(cut.startsWith(PREVIEW_MARKER)).toBe(true);
    expect(cut).toContain('cut to stay under');
  });

  it('fences a diff that contains backticks with a longer fence', () => {
    const p = buildPreview({
      base: [result('prod', [configMap('c', 'app', { readme: 'a' })])],
      head: [result('prod', [configMap('c', 'app', { readme: '```sh\nrun\n```' })])],
    });
    expect(previewMarkdown(p)).toContain('````diff\n');
  });

  it('text rendering: changes with +/~/- and indented diffs', () => {
    const text = previewText(buildPreview({ base, head, ...revs }));
    expect(text).toContain('Groundwork preview: base main (aaaaaaa) -> head feature (bbbbbbb)');
    expect(text).toContain('overlay prod: 1 added, 2 changed');
    expect(text).toContain(
      '    blocker ClusterVersion/version (from platform/ClusterVersion/version): target 4.14.38 → 4.16.1 skips 4.15',
    );
    expect(text).toContain(
      '    ~ ConfigMap/app/c (from platform/ConfigMap/c)\n        --- base/ConfigMap/app/c',
    );
    expect(text).toContain('    + Subscription/op/op (from platform/Subscription/op)');
  });
});
