// A chart's template files are the repository's (or a chart author's): when helm fails, Groundwork
// reads them to find the `required` inside a named template. That reading stays linear in the
// files' size, follows a bounded number of templates, and prints no control character they hold.
import { describe, expect, it } from 'vitest';
import { explainHelmFailure } from '../../src/render/helm/explain-helm-failure.js';
import { failingCallFor } from '../../src/render/helm/template-calls.js';

const helpers =
  '{{- define "c.name" -}}\n{{- if .Values.create -}}c{{- else -}}\n{{ required "name is required" .Values.name }}\n{{- end -}}\n{{- end -}}\n';
const line = '{{ include "c.name" . }}';

describe('reading named templates of a hostile chart', () => {
  it('an unterminated action of 300000 spaces, and unterminated quotes after include, cost one pass', () => {
    // The first reader (a lazy regex over the file) took minutes on 8000 spaces; these finish at once.
    const files = new Map([
      ['templates/_helpers.tpl', helpers],
      ['templates/_spaces.tpl', `{{ define "s" }}{{${' '.repeat(300_000)}`],
      ['templates/_quotes.tpl', `{{ define "q" }}{{ ${'include "'.repeat(30_000)} }}{{ end }}`],
      ['templates/_long.tpl', `{{ define "l" }}${'{{ if .Values.x }}'.repeat(50_000)}`],
    ]);
    expect(
      failingCallFor(`${line}{{ include "q" . }}{{ include "l" . }}`, 'name is required', files),
    ).toMatchObject({
      template: 'c.name',
      line: 3,
      required: [['name']],
    });
  });

  it('5000 defines that include each other in a ring are followed ten includes deep at most, and none twice', () => {
    const ring = Array.from(
      { length: 5000 },
      (_, i) =>
        `{{- define "r${i}" -}}{{ include "r${(i + 1) % 5000}" . }}{{ include "r${i}" . }}{{ fail "r${i} failed" }}{{- end -}}`,
    ).join('\n');
    const files = new Map([['templates/_ring.tpl', ring]]);
    // r0 .. r9 are reached (ten levels), r4999's message is not: nothing past the bound is read.
    expect(failingCallFor('{{ include "r0" . }}', 'r9 failed', files)?.template).toBe('r9');
    expect(failingCallFor('{{ include "r0" . }}', 'r4999 failed', files)).toBeUndefined();
  });

  it('a template or file name holding control characters is quoted in the explanation, escapes shown', () => {
    // The name as a Go string literal writes it: \u001b is ESC once unquoted (a terminal escape).
    const evil = 'x\\u001b[2J\\u001b]8;;http://evil\\u0007';
    const files = new Map([
      ['Chart.yaml', 'name: c\n'],
      ['templates/cm.yaml', `a: {{ include "${evil}" . }}\n`],
      ['templates/_h.tpl', `{{- define "${evil}" -}}{{ required "v is required" .Values.v }}{{- end -}}\n`],
    ]);
    const out = explainHelmFailure({
      stderr: 'Error: execution error at (c/templates/cm.yaml:1:4): v is required\n',
      files,
      given: [{ kind: 'values', values: {} }],
      origins: [],
    });
    expect(out.problem).toContain('it is required in "x\\u001b[2J');
    expect([...out.problem].filter((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)).toEqual([]);
    expect(out.fix).toBe("set v in the construct's values or a values file");
  });
});
