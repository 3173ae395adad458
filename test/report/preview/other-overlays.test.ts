import { describe, expect, it } from 'vitest';
import {
  buildPreview,
  otherOverlayChanges,
  previewMarkdown,
  previewText,
} from '../../../src/report/preview/index.js';
import type { SynthResult } from '../../../src/render/synth/synthesize.js';

const result = (overlay: string, hash: string): SynthResult => ({
  platform: 'p',
  overlay,
  manifests: [],
  hash,
  warnings: [],
});

describe('otherOverlayChanges', () => {
  it('compares every overlay but the previewed one by hash; new and gone overlays changed', () => {
    const base = [result('dev', 'a'), result('prod', 'b'), result('staging', 'c'), result('old', 'd')];
    const head = [result('dev', 'a2'), result('prod', 'b2'), result('staging', 'c'), result('new', 'e')];
    expect(otherOverlayChanges(base, head, 'dev')).toEqual({
      changed: ['new', 'old', 'prod'],
      unchanged: ['staging'],
    });
  });

  it('is said in one line of text and of Markdown, and as a field of the JSON', () => {
    const p = buildPreview({
      base: [result('dev', 'a')],
      head: [result('dev', 'a')],
      otherOverlays: { changed: ['prod'], unchanged: ['staging'] },
    });
    expect(previewText(p)).toContain('Other overlays: prod changes too (preview with --all-overlays).');
    expect(previewMarkdown(p)).toContain('Other overlays: `prod` changes too (preview with --all-overlays).');
    expect(JSON.parse(JSON.stringify(p)).otherOverlays).toEqual({
      changed: ['prod'],
      unchanged: ['staging'],
    });
    const none = buildPreview({
      base: [result('dev', 'a')],
      head: [result('dev', 'a')],
      otherOverlays: { changed: [], unchanged: ['prod'] },
    });
    expect(previewText(none)).toContain('Other overlays: none changes (prod).');
    const unknown = buildPreview({
      base: [result('dev', 'a')],
      head: [result('dev', 'a')],
      otherOverlays: { unknown: 'head fails synth of an overlay (ValidationFailed)' },
    });
    expect(previewText(unknown)).toContain('Other overlays: not compared (head fails synth of an overlay');
  });
});
