import { describe, expect, it } from 'vitest';
import { failingCallFor } from '../../../src/render/helm/template-calls.js';

// A chart like kyverno's: the ConfigMap's name comes from a helper that requires config.name when
// config.create is false, reached through a second helper. helm v3.22.0 names only cm.yaml:6.
const helpers = [
  '{{- define "kv.name" -}}',
  'kv',
  '{{- end -}}',
  '',
  '{{- define "kv.config.configMapName" -}}',
  '{{- if .Values.config.create -}}',
  '{{ default (include "kv.name" .) .Values.config.name }}',
  '{{- else -}}',
  '{{ required "config.name is required when config.create is false" .Values.config.name }}',
  '{{- end -}}',
  '{{- end -}}',
  '',
  '{{- define "kv.wrapped" -}}',
  'name: {{ include "kv.config.configMapName" . }}',
  '{{- end -}}',
  '',
].join('\n');
const files = new Map([
  ['Chart.yaml', 'apiVersion: v2\nname: kv\nversion: 1.0.0\n'],
  ['templates/_helpers.tpl', helpers],
  ['templates/cm.yaml', 'data:\n  {{- include "kv.wrapped" . | nindent 2 }}\n'],
]);
const line = '  {{- include "kv.wrapped" . | nindent 2 }}';

describe('failingCallFor', () => {
  it('follows include chains to the required that raised the message, with the condition around it', () => {
    expect(failingCallFor(line, 'config.name is required when config.create is false', files)).toEqual({
      template: 'kv.config.configMapName',
      file: 'templates/_helpers.tpl',
      line: 9,
      required: [['config', 'name']],
      conditions: [['config', 'create']],
    });
  });

  it('of several calls reached, the one whose literal is the message; none when no literal matches', () => {
    const two = new Map(files);
    two.set(
      'templates/_more.tpl',
      '{{- define "kv.wrapped" -}}\n{{ include "kv.config.configMapName" . }}{{ include "kv.port" . }}\n{{- end -}}\n' +
        '{{- define "kv.port" -}}\n{{- if not .Values.port }}{{ fail `port must be set` }}{{ end -}}\n{{- end -}}\n',
    );
    two.delete('templates/_helpers.tpl');
    two.set('templates/_helpers.tpl', helpers.replace('define "kv.wrapped"', 'define "kv.unused"'));
    const port = failingCallFor(line, 'port must be set', two);
    // A fail with no value of its own tests the values of the `if` around it.
    expect(port).toMatchObject({ template: 'kv.port', line: 5, required: [['port']] });
    expect(failingCallFor(line, 'config.name is required when config.create is false', two)?.line).toBe(9);
    expect(failingCallFor(line, 'something else', two)).toBeUndefined();
  });

  it('a line that includes nothing, an unknown template, or a template without required gives none', () => {
    expect(failingCallFor('a: {{ .Values.a }}', 'x', files)).toBeUndefined();
    expect(failingCallFor('{{ include "nope" . }}', 'x', files)).toBeUndefined();
    expect(failingCallFor('{{ include "kv.name" . }}', 'x', files)).toBeUndefined();
  });

  it('a template that includes itself is followed once', () => {
    const loop = new Map([
      [
        'templates/_l.tpl',
        '{{- define "l" -}}{{ include "l" . }}{{ required "l.v is required" .Values.l.v }}{{- end -}}\n',
      ],
    ]);
    expect(failingCallFor('{{ include "l" . }}', 'l.v is required', loop)).toMatchObject({
      template: 'l',
      required: [['l', 'v']],
    });
  });
});
