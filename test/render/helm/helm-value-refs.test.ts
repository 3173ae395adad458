import { describe, expect, it } from 'vitest';
import { helmValueRefs, valuesRead } from '../../../src/render/helm/helm-value-refs.js';

// The files of a chart `c2` with a subchart `sub` holding a subchart `deep` (as chartFilesOf names them).
const files = new Map([
  ['Chart.yaml', 'apiVersion: v2\nname: c2\nversion: 1.0.0\n'],
  ['charts/sub/Chart.yaml', 'apiVersion: v2\nname: sub\nversion: 0.1.0\n'],
  ['charts/sub/charts/deep/Chart.yaml', 'apiVersion: v2\nname: deep\nversion: 0.1.0\n'],
  [
    'templates/cm.yaml',
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: {{ required "image.tag is required" .Values.image.tag | default $.Values.fallback | quote }}\n',
  ],
]);

// helm v3.22.0's own messages, from `helm template` of small failing charts.
describe('helmValueRefs', () => {
  it('schema failures of the chart and its subcharts, nested ones by their place in charts/', () => {
    const stderr = [
      "Error: values don't meet the specifications of the schema(s) in the following chart(s):",
      'c2:',
      "- at '/mode': value must be one of 'fast', 'slow'",
      "- at '/password': validation failed",
      "  - at '/password': maxLength: got 19, want 5",
      "  - at '/password': 'x' does not match pattern '^[a-z]*$'",
      'sub:',
      "- at '/port': got string, want integer",
      'deep:',
      "- at '/levels/0/a~1b': got string, want integer",
      '',
    ].join('\n');
    expect(helmValueRefs(stderr, files)).toEqual([
      { path: ['mode'], how: 'schema' },
      { path: ['password'], how: 'schema' },
      { path: ['sub', 'port'], how: 'schema' },
      { path: ['sub', 'deep', 'levels', '0', 'a/b'], how: 'schema' },
    ]);
  });

  it('a subchart named first is not taken for the top chart', () => {
    const stderr =
      "Error: values don't meet the specifications of the schema(s) in the following chart(s):\ndeep:\n- at '/level': got string, want integer\n";
    expect(helmValueRefs(stderr, files)).toEqual([{ path: ['sub', 'deep', 'level'], how: 'schema' }]);
  });

  it('a nil pointer in a subchart template names the value under the subchart', () => {
    const stderr =
      'Error: template: c2/charts/sub/templates/s.yaml:7:15: executing "c2/charts/sub/templates/s.yaml" at <.Values.global.region.name>: nil pointer evaluating interface {}.name\n\nUse --debug flag to render out invalid YAML\n';
    expect(helmValueRefs(stderr, files)).toEqual([
      { path: ['sub', 'global', 'region', 'name'], how: 'missing' },
    ]);
  });

  it('index .Values and a failing function call', () => {
    expect(
      helmValueRefs(
        'Error: template: c2/charts/sub/templates/s.yaml:7:8: executing "c2/charts/sub/templates/s.yaml" at <index .Values "weird-key" "x">: error calling index: index of nil pointer\n',
        files,
      ),
    ).toEqual([{ path: ['sub', 'weird-key', 'x'], how: 'missing' }]);
    expect(
      helmValueRefs(
        'Error: template: c2/templates/cm.yaml:6:30: executing "c2/templates/cm.yaml" at <.Values.port>: error calling add: unable to cast "abc" of type string to int64\n',
        files,
      ),
    ).toEqual([{ path: ['port'], how: 'read' }]);
  });

  it('required and fail: the values the failing line reads, from the chart file', () => {
    expect(
      helmValueRefs(
        'Error: execution error at (c2/templates/cm.yaml:6:8): image.tag is required\n\nUse --debug flag to render out invalid YAML\n',
        files,
      ),
    ).toEqual([
      { path: ['image', 'tag'], how: 'read' },
      { path: ['fallback'], how: 'read' },
    ]);
  });

  it('a required inside a named template the line includes: the value it requires and the condition around it', () => {
    const chart = new Map([
      ...files,
      ['templates/d.yaml', 'metadata:\n  name: {{ include "c2.name" . }}\n'],
      [
        'templates/_helpers.tpl',
        '{{- define "c2.name" -}}\n{{- if .Values.create -}}\nc2\n{{- else -}}\n{{ required "name is required" .Values.name }}\n{{- end -}}\n{{- end -}}\n',
      ],
    ]);
    const via = { template: 'c2.name', file: 'templates/_helpers.tpl', line: 5 };
    expect(
      helmValueRefs('Error: execution error at (c2/templates/d.yaml:2:10): name is required\n', chart),
    ).toEqual([
      { path: ['name'], how: 'required', via },
      { path: ['create'], how: 'condition', via },
    ]);
  });

  it('a message that points at no value, or a template line it cannot read, gives none', () => {
    expect(
      helmValueRefs('Error: found in Chart.yaml, but missing in charts/ directory: db\n', files),
    ).toEqual([]);
    expect(helmValueRefs('Error: execution error at (c2/templates/gone.yaml:3:1): no\n', files)).toEqual([]);
  });
});

describe('valuesRead', () => {
  it('reads .Values, $.Values and index paths once each, not other fields', () => {
    expect(
      valuesRead(
        '{{ .Values.a.b }} {{ $.Values.a.b }} {{ index .Values "x-y" "z" }} {{ .Release.Values }} {{ $x.Values.q }}',
      ),
    ).toEqual([
      ['a', 'b'],
      ['x-y', 'z'],
    ]);
  });
});
