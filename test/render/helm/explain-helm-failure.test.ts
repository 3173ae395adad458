import { describe, expect, it } from 'vitest';
import { explainHelmFailure } from '../../../src/render/helm/explain-helm-failure.js';
import { overlayCandidates } from '../../../src/render/helm/overlay-candidates.js';
import type { ValueOrigin } from '../../../src/render/synth/overlays.js';

const origins: ValueOrigin[] = [
  { key: 'workers', value: '3', at: 'overlays/prod.yaml:2' },
  { key: 'ingress.replicas', value: '3', at: 'overlays/prod.yaml:5' },
  { key: 'ingress.host', value: 'a.example.com', at: 'overlays/prod.yaml:6' },
];

describe('overlayCandidates', () => {
  it('overlay scalars holding the same value, the one whose key resembles the chart key first', () => {
    expect(overlayCandidates('3', ['controller', 'replicaCount'], origins).map((o) => o.key)).toEqual([
      'ingress.replicas',
      'workers',
    ]);
    expect(overlayCandidates(3, ['x'], origins, 1).map((o) => o.key)).toEqual(['workers']);
  });

  it('no candidates for another value, or a value that is no string or number', () => {
    expect(overlayCandidates('4', ['replicaCount'], origins)).toEqual([]);
    expect(overlayCandidates(true, ['enabled'], [{ key: 'on', value: 'true', at: 'o.yaml:1' }])).toEqual([]);
    expect(overlayCandidates({ a: 1 }, ['m'], origins)).toEqual([]);
  });
});

const files = new Map([
  ['Chart.yaml', 'name: web\n'],
  ['values.yaml', 'token: chart-default-token\n'],
  [
    'templates/s.yaml',
    'data:\n  t: {{ (lookup "v1" "Secret" "" "x").data.t | required "the Secret x is required" }}\n',
  ],
]);

describe('explainHelmFailure', () => {
  it('replaces every given string of 4+ characters in the message by its path, longest first; keeps shorter ones and numbers', () => {
    const out = explainHelmFailure({
      stderr:
        "Error: values don't meet the specifications of the schema(s) in the following chart(s):\nweb:\n- at '/password': 'hunter2-and-more' does not match pattern '^[a-z]*$'\n- at '/pin': 'abc' does not match pattern '^[0-9]*$'\n- at '/n': minimum: got 0, want 1\n",
      files,
      given: [
        { kind: 'values', values: { password: 'hunter2-and-more', pin: 'abc', n: 0 } },
        { kind: 'valuesFile', index: 0, file: 'v.yaml', values: { short: 'hunter2' } },
      ],
      origins: [],
    });
    expect(out.problem).not.toContain('hunter2');
    expect(out.problem).toContain("'<value of password>' does not match");
    expect(out.problem).toContain("'abc' does not match");
    expect(out.problem).toContain('got 0, want 1');
    expect(out.field).toBe('values.password');
  });

  it('a value that is also a word of a replacement is not replaced inside it; hostile keys are quoted and cut', () => {
    const out = explainHelmFailure({
      stderr: 'Error: execution error at (web/templates/x.yaml:1:1): bad hunter2-secret and value\n',
      files,
      given: [
        { kind: 'values', values: { a: 'hunter2-secret', b: 'value', ['k\u001b[31m'.repeat(40)]: 'zzzz' } },
      ],
      origins: [],
    });
    expect(out.problem).toContain('bad <value of a> and <value of b>');
    const key = `x\u001b[2J${'y'.repeat(300)}`;
    const hostile = explainHelmFailure({
      stderr: `Error: values don't meet the specifications of the schema(s) in the following chart(s):\nweb:\n- at '/zzzz/${key}': got string, want integer\n`,
      files,
      given: [{ kind: 'values', values: { zzzz: { [key]: 'no' } } }],
      origins: [],
    });
    expect(hostile.problem).toContain('(zzzz["x\\u001b[2Jyyy');
    expect(hostile.problem).toMatch(/y… is a string, from the construct's values/);
    expect(hostile.problem).not.toContain('\u001b');
    expect(hostile.problem).not.toContain('\u001b');
  });

  it("names the chart's default, and a template failing after lookup says lookup finds nothing", () => {
    const out = explainHelmFailure({
      stderr: 'Error: execution error at (web/templates/s.yaml:2:6): the Secret x is required\n',
      files,
      given: [{ kind: 'values', values: {} }],
      origins,
    });
    expect(out.problem).toBe(
      'helm template failed at web/templates/s.yaml:2: execution error at (web/templates/s.yaml:2:6): the Secret x is required',
    );
    expect(out.fix).toContain('web/templates/s.yaml calls lookup, which finds nothing at synth');
    expect(out.from).toBeUndefined();

    const defaulted = explainHelmFailure({
      stderr:
        "Error: values don't meet the specifications of the schema(s) in the following chart(s):\nweb:\n- at '/token': got string, want integer\n",
      files,
      given: [{ kind: 'values', values: {} }],
      origins,
    });
    expect(defaulted.problem).toContain("token is a string, from the chart's default in values.yaml");
    expect(defaulted.field).toBe('chart');
    // The chart's own values are the chart's, public: not redacted.
    expect(defaulted.fix).toMatch(/^change token in values \(it overrides the chart's default\)/);
  });

  it('a required inside a helper: names the value it requires, where the helper is, and the condition the overlay set', () => {
    const chart = new Map([
      ['Chart.yaml', 'name: kv\n'],
      ['values.yaml', 'config:\n  create: true\n  name: ""\n'],
      ['templates/cm.yaml', 'data:\n  name: {{ include "kv.cm" . }}\n'],
      [
        'templates/_helpers.tpl',
        '{{- define "kv.cm" -}}\n{{- if .Values.config.create -}}\nkv\n{{- else -}}\n{{ required "config.name is required when config.create is false" .Values.config.name }}\n{{- end -}}\n{{- end -}}\n',
      ],
    ]);
    const out = explainHelmFailure({
      stderr:
        'Error: execution error at (kv/templates/cm.yaml:2:10): config.name is required when config.create is false\n\nUse --debug flag to render out invalid YAML\n',
      files: chart,
      given: [{ kind: 'values', values: { config: { create: false } } }],
      origins: [{ key: 'kyverno.configCreate', value: 'false', at: 'overlays/prod.yaml:4' }],
    });
    // The chart's default "" is what `required` refuses: config.name is the value to set.
    expect(out.problem).toContain("config.name is a string, from the chart's default in values.yaml");
    expect(out.problem).toContain(
      "the condition around it reads config.create: a boolean, from the construct's values",
    );
    expect(out.problem).toContain(
      'it is required in kv.cm (templates/_helpers.tpl:5), which that line includes',
    );
    expect(out.fix).toBe(
      "set config.name in the construct's values or a values file, or change values.config.create (the condition it is required under)",
    );
    expect(out.field).toBe('chart');

    // Set and non-empty, the value is not what is missing: no condition is offered.
    const set = explainHelmFailure({
      stderr:
        'Error: execution error at (kv/templates/cm.yaml:2:10): config.name is required when config.create is false\n',
      files: chart,
      given: [{ kind: 'values', values: { config: { create: false, name: 'cm-name' } } }],
      origins: [],
    });
    expect(set.fix).not.toContain('the condition it is required under');
    expect(set.field).toBe('values.config.name');
  });
});
