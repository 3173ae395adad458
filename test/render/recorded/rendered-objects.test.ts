import { describe, expect, it } from 'vitest';
import { readHelmFailure } from '../../../src/render/helm/helm-args.js';
import { renderDifferences } from '../../../src/render/recorded/render-differences.js';
import { isRemoteReference } from '../../../src/render/kustomize/render-kustomize.js';
import { parseRendered, placeRendered } from '../../../src/render/recorded/rendered-objects.js';
import type { K8sObject } from '../../../src/core/object.js';

const output = `---
# Source: hello/templates/sa.yaml
apiVersion: v1
kind: ServiceAccount
metadata:
  name: hello
---
# Source: hello/templates/list.yaml
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: a }
  - apiVersion: rbac.authorization.k8s.io/v1
    kind: ClusterRole
    metadata: { name: hello }
---
# Source: hello/templates/empty.yaml
---
`;

function obj(
  kind: string,
  name: string,
  annotations?: Record<string, string>,
  apiVersion = 'v1',
): { object: K8sObject } {
  return { object: { apiVersion, kind, metadata: { name, ...(annotations ? { annotations } : {}) } } };
}

describe('parseRendered', () => {
  it('reads every object with its template, flattening Lists and skipping empty documents', () => {
    const { objects, problems } = parseRendered(output);
    expect(problems).toEqual([]);
    expect(objects.map((o) => [o.object.kind, o.object.metadata.name, o.template])).toEqual([
      ['ServiceAccount', 'hello', 'hello/templates/sa.yaml'],
      ['ConfigMap', 'a', 'hello/templates/list.yaml'],
      ['ClusterRole', 'hello', 'hello/templates/list.yaml'],
    ]);
  });

  it('names documents that are no objects by template and position, without quoting them', () => {
    const { problems } = parseRendered(
      '---\n# Source: x/templates/a.yaml\nsecret: hunter2\n---\n# Source: x/templates/b.yaml\nkey: [unclosed\n',
    );
    expect(problems).toEqual([
      {
        document: 2,
        template: 'x/templates/a.yaml',
        message: expect.stringContaining('not a Kubernetes object'),
      },
      { document: 3, template: 'x/templates/b.yaml', message: expect.stringContaining('not YAML') },
    ]);
    expect(JSON.stringify(problems)).not.toContain('hunter2');
  });

  it('reads as kubectl reads (YAML 1.1): a file mode in octal, yes and on as booleans, 1:30 as text', () => {
    const { objects } = parseRendered(
      '---\n# Source: x/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  mode: 0444\n  enabled: yes\n  flag: on\n  at: 1:30\n',
    );
    expect(objects[0]!.object.data).toEqual({ mode: 292, enabled: true, flag: true, at: '1:30' });
  });

  it('keeps the last value of a key held twice, as kubectl does, and warns naming the template and line', () => {
    const { objects, problems, warnings } = parseRendered(
      '---\n# Source: x/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n',
    );
    expect(problems).toEqual([]);
    expect(objects[0]!.object.metadata.name).toBe('b');
    expect(warnings).toEqual([
      {
        document: 2,
        template: 'x/templates/cm.yaml',
        message: expect.stringMatching(
          /holds a key twice \(line 7 of the document\): the last value is used/,
        ),
      },
    ]);
  });

  it('refuses .inf as kubectl does, naming the line, not the value of another key', () => {
    const { problems } = parseRendered(
      '---\n# Source: x/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  ratio: .inf\n',
    );
    expect(problems).toEqual([
      {
        document: 2,
        template: 'x/templates/cm.yaml',
        message: expect.stringMatching(/^holds \.inf, which is no JSON number .*\(line 8\)$/),
      },
    ]);
  });
});

describe('placeRendered', () => {
  it('sets the release namespace on namespaced objects only (built-in cluster kinds and cluster-scoped CRDs of the render excluded)', () => {
    const crd: K8sObject = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: { group: 'example.com', scope: 'Cluster', names: { kind: 'Widget' } },
    };
    const placed = placeRendered(
      [
        obj('ConfigMap', 'a'),
        obj('ClusterRole', 'r', undefined, 'rbac.authorization.k8s.io/v1'),
        { object: crd },
        obj('Widget', 'w', undefined, 'example.com/v1'),
        obj('Gadget', 'g', undefined, 'example.com/v1'),
        { object: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'other' } } },
      ],
      { namespace: 'apps' },
    );
    expect(placed.objects.map((o) => o.object.metadata.namespace)).toEqual([
      'apps',
      undefined,
      undefined,
      undefined,
      'apps',
      'other',
    ]);
  });

  it('places hooks: pre-install earlier, post-install later, test and delete-only hooks dropped; keep and before-hook-creation mapped', () => {
    const placed = placeRendered(
      [
        obj('Job', 'migrate', {
          'helm.sh/hook': 'pre-install,pre-upgrade',
          'helm.sh/hook-delete-policy': 'before-hook-creation',
        }),
        obj('Job', 'notify', { 'helm.sh/hook': 'post-install' }),
        obj('Pod', 'test', { 'helm.sh/hook': 'test' }),
        obj('Job', 'cleanup', { 'helm.sh/hook': 'pre-delete' }),
        obj('Job', 'staged', { 'helm.sh/hook': 'pre-install', 'groundwork.io/stage': 'resources' }),
        obj('PersistentVolumeClaim', 'data', { 'helm.sh/resource-policy': 'keep' }),
        obj('ConfigMap', 'plain'),
      ],
      {},
    );
    expect(placed.droppedHooks).toBe(2);
    const byName = Object.fromEntries(
      placed.objects.map((o) => [o.object.metadata.name, o.object.metadata.annotations ?? {}]),
    );
    expect(Object.keys(byName)).toEqual(['migrate', 'notify', 'staged', 'data', 'plain']);
    expect(byName.migrate).toMatchObject({
      'groundwork.io/stage': 'namespaces',
      'groundwork.io/on-immutable': 'recreate',
    });
    // No delete policy is helm's before-hook-creation: a changed hook is re-created, runs again.
    expect(byName.notify).toMatchObject({
      'groundwork.io/stage': 'operands',
      'groundwork.io/on-immutable': 'recreate',
      'groundwork.io/hook-weight': '0',
    });
    expect(byName.staged!['groundwork.io/stage']).toBe('resources');
    expect(byName.data).toMatchObject({ 'groundwork.io/prune': 'keep' });
    expect(byName.plain).toEqual({});
  });

  it('gives every pre/post hook its helm weight (0 when absent or not an integer), never a CRD or a plain object', () => {
    const placed = placeRendered(
      [
        obj('Job', 'first', { 'helm.sh/hook': 'pre-install', 'helm.sh/hook-weight': '-5' }),
        obj('ConfigMap', 'second', { 'helm.sh/hook': 'pre-upgrade', 'helm.sh/hook-weight': '+3' }),
        obj('Secret', 'odd', { 'helm.sh/hook': 'post-install', 'helm.sh/hook-weight': ' 2' }),
        obj('Secret', 'huge', { 'helm.sh/hook': 'post-install', 'helm.sh/hook-weight': '1e9' }),
        obj('CustomResourceDefinition', 'widgets.example.com', {
          'helm.sh/hook': 'pre-install',
          'helm.sh/hook-weight': '-9',
        }),
        obj('ConfigMap', 'plain', { 'helm.sh/hook-weight': '4' }),
        obj('Job', 'own', { 'helm.sh/hook': 'pre-install', 'groundwork.io/hook-weight': '7' }),
      ],
      {},
    );
    const weight = (name: string) =>
      placed.objects.find((o) => o.object.metadata.name === name)!.object.metadata.annotations?.[
        'groundwork.io/hook-weight'
      ];
    expect(weight('first')).toBe('-5');
    expect(weight('second')).toBe('3');
    expect(weight('odd')).toBe('0');
    expect(weight('huge')).toBe('0');
    expect(weight('widgets.example.com')).toBeUndefined();
    expect(weight('plain')).toBeUndefined();
    expect(weight('own')).toBe('7');
  });

  it('maps hook-succeeded and hook-failed to nothing but recreate: the hook stays after it ran', () => {
    const placed = placeRendered(
      [
        obj('Job', 'migrate', {
          'helm.sh/hook': 'pre-upgrade',
          'helm.sh/hook-delete-policy': 'hook-succeeded,hook-failed',
        }),
      ],
      {},
    );
    const annotations = placed.objects[0]!.object.metadata.annotations!;
    expect(annotations['groundwork.io/on-immutable']).toBe('recreate');
    expect(annotations).not.toHaveProperty('groundwork.io/apply');
    expect(annotations).not.toHaveProperty('groundwork.io/prune');
  });

  it('keeps test hooks when asked, in their own stage', () => {
    const placed = placeRendered([obj('Pod', 'test', { 'helm.sh/hook': 'test' })], { includeTests: true });
    expect(placed.objects).toHaveLength(1);
    expect(placed.objects[0]!.object.metadata.annotations).not.toHaveProperty('groundwork.io/stage');
  });

  it('writes ignored pointers into groundwork.io/ignore-differences, merged with the chart’s own', () => {
    const placed = placeRendered(
      [obj('Secret', 'db', { 'groundwork.io/ignore-differences': '["/data/b"]' }), obj('Secret', 'other')],
      { ignore: [{ kind: 'Secret', name: 'db', pointers: ['/data/a'] }] },
    );
    expect(placed.objects[0]!.object.metadata.annotations!['groundwork.io/ignore-differences']).toBe(
      '["/data/a","/data/b"]',
    );
    expect(placed.objects[1]!.object.metadata.annotations ?? {}).toEqual({});
  });

  it('leaves its input unchanged', () => {
    const input = [obj('Job', 'j', { 'helm.sh/hook': 'post-install' })];
    const before = JSON.stringify(input);
    placeRendered(input, { namespace: 'x' });
    expect(JSON.stringify(input)).toBe(before);
  });
});

describe('renderDifferences', () => {
  it('names the objects and the fields that differ', () => {
    const a: K8sObject[] = [
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's', namespace: 'n' },
        data: { p: 'x', q: 'same' },
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n' }, data: { k: 'v' } },
    ];
    const b: K8sObject[] = [
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's', namespace: 'n' },
        data: { p: 'y', q: 'same' },
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n' }, data: { k: 'v' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'new', namespace: 'n' } },
    ];
    expect(renderDifferences(a, b)).toEqual([
      { id: 'n_new__ConfigMap', pointers: ['/'] },
      { id: 'n_s__Secret', pointers: ['/data/p'] },
    ]);
  });
});

describe("helm's error messages", () => {
  it.each([
    [
      'Error: template: hello/templates/deployment.yaml:12:20: executing "hello/templates/deployment.yaml" at <.Values.image.tag>: nil pointer evaluating interface {}.tag',
      'hello/templates/deployment.yaml',
      12,
    ],
    [
      'Error: execution error at (mariadb/templates/secrets.yaml:21:28): A MariaDB Root Password is required!',
      'mariadb/templates/secrets.yaml',
      21,
    ],
    [
      'Error: YAML parse error on hello/templates/cm.yaml: error converting YAML to JSON: yaml: line 4',
      'hello/templates/cm.yaml',
      undefined,
    ],
  ])('%s', (stderr, template, line) => {
    const failure = readHelmFailure(`${stderr}\n`);
    expect(failure.template).toBe(template);
    expect(failure.line).toBe(line);
    expect(failure.message).not.toMatch(/^Error:/);
  });

  it('keeps the schema failure lines', () => {
    const failure = readHelmFailure(
      "Error: values don't meet the specifications of the schema(s) in the following chart(s):\nchart-with-schema:\n- age: Must be greater than or equal to 0\n",
    );
    expect(failure.message).toContain('age: Must be greater than or equal to 0');
    expect(failure.template).toBeUndefined();
  });
});

describe('remote kustomize references', () => {
  it.each([
    ['https://github.com/org/repo//base?ref=v1', true],
    ['github.com/org/repo/base?ref=v1', true],
    ['git@github.com:org/repo.git//base', true],
    ['ssh://git@example.com/repo.git', true],
    ['../../base', false],
    ['deployment.yaml', false],
    ['components/monitoring', false],
  ])('%s: %s', (entry, remote) => {
    expect(isRemoteReference(entry)).toBe(remote);
  });
});
