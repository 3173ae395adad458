// cdk8s's `Include` in the synth bundle reads its file as kubectl would (YAML 1.1), not as cdk8s's
// own `yaml` 1.1 schema: the file mode an upstream manifest writes in octal is the mode applied.
import { describe, expect, it } from 'vitest';
import { groundwork } from '../../harness/cli.js';
import { platformDir } from '../../harness/platform-dir.js';

const PLATFORM = `import { Include, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new Include(platform, 'upstream', { url: 'manifests/upstream.yaml' });
  },
});
`;

/** An upstream manifest as projects publish them: a mode in octal, YAML 1.1 booleans, a time as text. */
const UPSTREAM = `apiVersion: v1
kind: Pod
metadata:
  name: reader
  namespace: default
  annotations:
    schedule: 1:30
spec:
  automountServiceAccountToken: off
  containers:
    - name: c
      image: busybox
      ports:
        - containerPort: 0x1F90
  volumes:
    - name: config
      projected:
        defaultMode: 0444
        sources: []
`;

describe('Include reads a file as kubectl reads it', () => {
  it('gives defaultMode 0444 as 292 (read-only), off as false, 0x1F90 as 8080 and 1:30 as text', async () => {
    const dir = platformDir(PLATFORM, { files: { 'manifests/upstream.yaml': UPSTREAM } });
    const r = await groundwork(['synth', '--dir', dir, '--format', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const objects = JSON.parse(r.stdout) as { kind: string }[];
    const pod = objects.find((o) => o.kind === 'Pod') as unknown as {
      metadata: { annotations: Record<string, string> };
      spec: {
        automountServiceAccountToken: unknown;
        containers: { ports: { containerPort: unknown }[] }[];
        volumes: { projected: { defaultMode: unknown } }[];
      };
    };
    expect(pod.spec.volumes[0]!.projected.defaultMode).toBe(292);
    expect(pod.spec.automountServiceAccountToken).toBe(false);
    expect(pod.spec.containers[0]!.ports[0]!.containerPort).toBe(8080);
    expect(pod.metadata.annotations.schedule).toBe('1:30');
  });
});
