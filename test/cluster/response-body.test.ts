import { describe, expect, it } from 'vitest';
import { listPageSchema } from '../../src/cluster/list.js';
import { ClusterResponseInvalidError, parseBody, parseStatus } from '../../src/cluster/response-body.js';
import { watchEventSchema } from '../../src/cluster/watch.js';
import { fixtureYaml } from '../harness/fixtures.js';

const SUBJECT = 'GET /apis/machineconfiguration.openshift.io/v1/machineconfigpools';

/** The reason of the error `fn` throws, as the user reads it. */
function refusal(fn: () => unknown): ClusterResponseInvalidError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ClusterResponseInvalidError);
    return err as ClusterResponseInvalidError;
  }
  throw new Error('did not throw');
}

describe('response bodies', () => {
  it('reads a real list (the MachineConfigPools of a 4.14 cluster) without copying its items', () => {
    const list = fixtureYaml<{ items: unknown[] }>('cluster-state/not-upgrading/mcp.yaml');
    const page = parseBody(JSON.stringify(list), listPageSchema, SUBJECT);
    expect(page.items.map((p) => p.metadata.name)).toEqual(['master', 'worker']);
    expect(page.items).toEqual(list.items);
    expect(page.metadata.continue).toBeUndefined();
  });

  it('reads items: null as an empty list', () => {
    expect(
      parseBody('{"items":null,"metadata":{"resourceVersion":"7"}}', listPageSchema, SUBJECT).items,
    ).toEqual([]);
  });

  it.each([
    [
      'a list item without a name',
      '{"items":[{"metadata":{"name":"a"}},{"metadata":{}}],"metadata":{"resourceVersion":"1"}}',
      /items\[1\]: expected a Kubernetes object/,
    ],
    ['a list without its resourceVersion', '{"items":[],"metadata":{}}', /metadata\.resourceVersion: /],
    ['an HTML page from a proxy', '<html><body>sign in: token=abc123</body></html>', /\(root\): not JSON/],
    ['a JSON array', '[]', /\(root\): /],
  ])('refuses %s, naming the request and the field, never the body', (_, text, problem) => {
    const err = refusal(() => parseBody(text, listPageSchema, SUBJECT));
    expect(err.code).toBe('ClusterResponseInvalid');
    expect(err.subject).toBe(SUBJECT);
    expect(err.message).toMatch(problem);
    expect(err.message).not.toContain('abc123');
    expect(err.fix).toBeTruthy();
  });

  it('an empty body is undefined, and any JSON passes without a schema', () => {
    expect(parseBody('', undefined, SUBJECT)).toBeUndefined();
    expect(parseBody('{"a":1}', undefined, SUBJECT)).toEqual({ a: 1 });
  });

  it.each([
    [
      'ADDED',
      { type: 'ADDED', object: { kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '5' } } },
    ],
    ['BOOKMARK', { type: 'BOOKMARK', object: { kind: 'ConfigMap', metadata: { resourceVersion: '9' } } }],
    [
      'ERROR (410)',
      { type: 'ERROR', object: { kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 } },
    ],
  ])('reads a watch event: %s', (_, event) => {
    expect(parseBody(JSON.stringify(event), watchEventSchema, 'WATCH /api/v1/configmaps')).toEqual(event);
  });

  it.each([
    ['an unknown type', { type: 'RESYNC', object: {} }, /type: /],
    [
      'an object without a name',
      { type: 'MODIFIED', object: { metadata: {} } },
      /object: expected a Kubernetes object/,
    ],
    [
      'a bookmark without a resourceVersion',
      { type: 'BOOKMARK', object: { metadata: {} } },
      /object\.metadata\.resourceVersion: /,
    ],
  ])('refuses a watch event with %s', (_, event, problem) => {
    const err = refusal(() => parseBody(JSON.stringify(event), watchEventSchema, 'WATCH /api/v1/configmaps'));
    expect(err.subject).toBe('WATCH /api/v1/configmaps');
    expect(err.message).toMatch(problem);
  });

  it('reads a Status from an error body; anything else is no Status', () => {
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      message: 'configmaps "a" not found',
      reason: 'NotFound',
      details: { name: 'a', kind: 'configmaps' },
      code: 404,
    };
    expect(parseStatus(JSON.stringify(status))).toEqual(status);
    expect(parseStatus('<html>502 Bad Gateway</html>')).toBeUndefined();
    expect(parseStatus('["NotFound"]')).toBeUndefined();
    expect(parseStatus('{"code":"404"}')).toBeUndefined();
  });
});
