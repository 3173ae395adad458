import { ApiObject, App } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { nameProblem, nameRule } from '../../../src/core/object-name.js';
import { Platform } from '../../../src/render/synth/platform.js';
import { Validation } from '../../../src/render/synth/validation.js';

function issuesFor(
  objects: { id: string; kind: string; apiVersion?: string; name: string; namespace?: string }[],
) {
  const app = new App();
  const platform = new Platform(app, 'platform', { openshiftVersion: '4.16' });
  for (const o of objects)
    new ApiObject(platform, o.id, {
      apiVersion: o.apiVersion ?? 'v1',
      kind: o.kind,
      metadata: { name: o.name, ...(o.namespace ? { namespace: o.namespace } : {}) },
    });
  platform.finalize();
  return Validation.all(app);
}

describe('object names are checked at synth, by the rule of their kind', () => {
  it('refuses a ConfigMap named Platform_Info, at its construct path, quoting the name', () => {
    const [issue, ...rest] = issuesFor([
      { id: 'info', kind: 'ConfigMap', name: 'Platform_Info', namespace: 'a' },
    ]);
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ path: 'platform/info', field: 'metadata.name', severity: 'error' });
    expect(issue!.message).toContain('"Platform_Info" is not a DNS-1123 subdomain');
    expect(issue!.fix).toContain('"platform-info"');
  });

  it('takes dots in a subdomain name but not in a Namespace or Service name (DNS labels)', () => {
    const issues = issuesFor([
      { id: 'cm', kind: 'ConfigMap', name: 'a.b', namespace: 'ns' },
      { id: 'svc', kind: 'Service', name: 'a.b', namespace: 'ns' },
      { id: 'ns', kind: 'Namespace', name: 'x.y' },
    ]);
    expect(issues.map((i) => i.path)).toEqual(['platform/svc', 'platform/ns']);
    expect(issues[0]!.message).toContain('"a.b" is not a DNS-1123 label');
  });

  it('follows RBAC path-segment names (system:aggregate-to-view) and checks the namespace', () => {
    const issues = issuesFor([
      {
        id: 'role',
        kind: 'ClusterRole',
        apiVersion: 'rbac.authorization.k8s.io/v1',
        name: 'system:aggregate-to-view',
      },
      { id: 'cm', kind: 'ConfigMap', name: 'ok', namespace: 'Team_A' },
    ]);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: 'platform/cm', field: 'metadata.namespace' });
  });

  it('applies the length limits', () => {
    expect(nameProblem('a'.repeat(63), nameRule('', 'Namespace'))).toBeUndefined();
    expect(nameProblem('a'.repeat(64), nameRule('', 'Namespace'))).toContain('at most 63');
    expect(nameProblem('a'.repeat(253), nameRule('apps', 'Deployment'))).toBeUndefined();
    expect(nameProblem('a'.repeat(254), nameRule('apps', 'Deployment'))).toContain('at most 253');
    expect(nameProblem('a/b', nameRule('rbac.authorization.k8s.io', 'Role'))).toContain('"/"');
  });
});
