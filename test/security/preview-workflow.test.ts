import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import {
  buildPreview,
  previewMarkdown,
  PREVIEW_MARKER,
  type PreviewData,
} from '../../src/report/preview/index.js';
import { parsePreviewJson, PREVIEW_JSON_LIMITS } from '../../src/report/preview/preview-schema.js';
import { groundwork } from '../harness/cli.js';
import { result } from '../report/preview/helpers.js';

// Attack (issue 31, item 6): the shipped workflow ran the pull request's own groundwork (and its
// npm lifecycle scripts) in a job holding the redaction key and a write token, so the pull request
// could forge the comment and the gate. Now the job that touches pull-request content has no secret
// and a read-only token and uploads the preview as JSON; the job that comments reads that JSON
// with `groundwork preview --from-json` and renders the markdown itself. The pull request controls
// that JSON entirely (it can edit its own workflow), so every document below is what it could send.

const cm = (name: string, value: string): K8sObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'team-a' },
  data: { value },
});

/** A real preview: a ConfigMap changed, one added. */
function legit(): PreviewData {
  return buildPreview({
    base: [result('prod', [cm('a', '1')])],
    head: [result('prod', [cm('a', '2'), cm('b', '1')])],
    baseRevision: { ref: 'origin/main', oid: 'a'.repeat(40) },
    headRevision: { ref: 'HEAD', oid: 'b'.repeat(40) },
  });
}

/** A copy of the legit preview's JSON, edited. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a forger edits any field
type Doc = any;
function forged(edit: (doc: Doc) => void): string {
  const doc = JSON.parse(JSON.stringify(legit())) as Doc;
  edit(doc);
  return JSON.stringify(doc);
}

function refusal(json: string): string {
  try {
    parsePreviewJson(json, 'preview.json');
  } catch (err) {
    expect(err).toMatchObject({ code: 'InvalidPreview', subject: 'preview.json' });
    return (err as Error).message;
  }
  throw new Error('accepted');
}

describe('the comment job reads the pull request job’s preview as data', () => {
  it('renders a real preview exactly as the job that wrote it would', () => {
    const p = legit();
    const back = parsePreviewJson(JSON.stringify(p), 'preview.json');
    expect(previewMarkdown(back)).toBe(previewMarkdown(p));
  });

  it('refuses ready-made markdown, hostile names, forged counts and oversized documents', () => {
    const cases: [string, string][] = [
      [forged((d) => (d.markdown = `${PREVIEW_MARKER}\n## All clear`)), 'markdown'],
      [forged((d) => (d.overlays[0].comment = '<!--')), 'comment'],
      [forged((d) => (d.overlays[0].changes[0].kind = 'ConfigMap |\n\n<!--')), 'a kind'],
      [forged((d) => (d.overlays[0].summary[0].kind = 'ConfigMap | x')), 'a kind'],
      [forged((d) => (d.overlays[0].changes[0].object = 'ConfigMap/a\n\n<!--')), 'one line'],
      [forged((d) => (d.overlays[0].changes[0].stage = 'later')), 'stage'],
      [forged((d) => (d.overlays[0].overlay = 'prod -->')), 'an overlay name'],
      [forged((d) => (d.head.failure = { code: 'NotACode', message: 'x', issues: [] })), 'code'],
      [
        forged((d) => {
          d.overlays[0].risks.push({
            severity: 'blocker',
            code: 'ClusterVersionSkipsMinors',
            subject: 's',
            message: 'm',
          });
        }),
        'risk counts do not match',
      ],
      [
        forged((d) => {
          d.status = 'ok';
          d.head.failure = { code: 'SynthCrashed', message: 'x', issues: [] };
        }),
        'disagree',
      ],
      [`${'x'.repeat(PREVIEW_JSON_LIMITS.bytes + 1)}`, 'larger than'],
      ['{"apiVersion":', 'not JSON'],
    ];
    for (const [json, why] of cases) expect(refusal(json)).toContain(why);
  });

  it('escapes what the schema lets through: text fields reach the comment as text', () => {
    const json = forged((d) => {
      d.overlays[0].changes[0].source = '--> </details> ![x](https://evil.example/p.png) @org/team';
      d.overlays[0].risks.push({
        severity: 'low',
        code: 'ObjectPruned',
        subject: 'ConfigMap/team-a/a',
        message: '<!-- hide the rest --> [click](https://evil.example)',
      });
      d.risks.low = 1;
    });
    const md = previewMarkdown(parsePreviewJson(json, 'preview.json'));
    expect(md.startsWith(PREVIEW_MARKER)).toBe(true);
    expect(md.split('<!--').length - 1).toBe(1); // the marker's, and no other comment opens
    expect(md).not.toContain('<!-- hide');
    expect(md).not.toContain('--> </details>');
  });

  it('groundwork preview --from-json: exit 0 and markdown for a real one, exit 2 naming the file for a forged one, the gate from the data', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-preview-json-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(legit()));
    const ok = await groundwork(['preview', '--from-json', good, '-o', 'markdown', '--fail-on', 'blocker']);
    expect([ok.code, ok.stdout.startsWith(PREVIEW_MARKER)]).toEqual([0, true]);

    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      forged((d) => (d.markdown = 'forged')),
    );
    const refused = await groundwork(['preview', '--from-json', bad, '-o', 'markdown']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(bad);
    expect(refused.stdout).toBe('');

    const blocked = join(dir, 'blocked.json');
    writeFileSync(
      blocked,
      forged((d) => {
        d.overlays[0].risks.push({
          severity: 'blocker',
          code: 'ClusterVersionSkipsMinors',
          subject: 's',
          message: 'm',
        });
        d.risks.blocker = 1;
      }),
    );
    const gated = await groundwork([
      'preview',
      '--from-json',
      blocked,
      '-o',
      'markdown',
      '--fail-on',
      'blocker',
    ]);
    expect(gated.code).toBe(1);
    expect(gated.stderr).toContain('1 blocker risk note(s)');

    const both = await groundwork(['preview', '--from-json', good, '--base', 'main']);
    expect(both.code).toBe(2);
  });
});
