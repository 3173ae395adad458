// The platforms `bench cli` plans (bench/cli.ts): each a committed repository, as `plan` usually
// sees one, whose synthesized objects kubectl diffs too.
import { execFileSync } from 'node:child_process';
import { writePlatformFiles } from './platform-files.js';

/** A platform of the bench: its name (and namespace prefix), what it makes, its files. */
export interface CliPlatform {
  name: string;
  /** What it is, in the report: `5 objects`. */
  label: string;
  platform: string;
  files: Record<string, string>;
}

/** Five objects of a small application in `namespace`, with `greeting` in its ConfigMap. */
export function appManifests(namespace: string, greeting = 'hello'): string {
  return `apiVersion: v1
kind: Namespace
metadata: {name: ${namespace}}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: app, namespace: ${namespace}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: app-config, namespace: ${namespace}}
data: {greeting: ${greeting}}
---
apiVersion: v1
kind: Service
metadata: {name: app, namespace: ${namespace}}
spec: {ports: [{port: 80}], selector: {app: app}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app, namespace: ${namespace}}
spec:
  replicas: 1
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec: {containers: [{name: app, image: registry.k8s.io/pause:3.10}]}
`;
}

const INCLUDE = `import { Include, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    new Include(new Platform(scope, 'platform', { openshiftVersion: '4.16' }), 'app', { url: 'manifests/app.yaml' });
  },
});
`;

/** The 5-object application, in a file of manifests the platform includes. */
export function smallPlatform(name: string): CliPlatform {
  return { name, label: '5 objects', platform: INCLUDE, files: { 'manifests/app.yaml': appManifests(name) } };
}

/** 200 objects: ten namespaces, each with the application's four objects and 15 ConfigMaps. */
export function largePlatform(name: string): CliPlatform {
  const docs: string[] = [];
  for (let n = 0; n < 10; n++) {
    const ns = `${name}-${n}`;
    docs.push(appManifests(ns));
    for (let c = 0; c < 15; c++)
      docs.push(
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings-${c}, namespace: ${ns}}\ndata: {index: "${c}", owner: team-${n}}\n`,
      );
  }
  return {
    name,
    label: '200 objects',
    platform: INCLUDE,
    files: { 'manifests/app.yaml': docs.join('---\n') },
  };
}

/** A chart in the repository: a ServiceAccount, ConfigMap, Service and Deployment named after it. */
function chartFiles(chart: string): Record<string, string> {
  const n = '{{ .Chart.Name }}';
  return {
    [`charts/${chart}/Chart.yaml`]: `apiVersion: v2\nname: ${chart}\nversion: 1.0.0\n`,
    [`charts/${chart}/values.yaml`]: 'replicas: 1\ngreeting: hello\n',
    [`charts/${chart}/templates/app.yaml`]: `apiVersion: v1
kind: ServiceAccount
metadata: {name: ${n}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ${n}-config}
data: {greeting: {{ .Values.greeting | quote }}, release: {{ .Release.Name | quote }}}
---
apiVersion: v1
kind: Service
metadata: {name: ${n}}
spec: {ports: [{port: 80}], selector: {app: ${n}}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${n}}
spec:
  replicas: {{ .Values.replicas }}
  selector: {matchLabels: {app: ${n}}}
  template:
    metadata: {labels: {app: ${n}}}
    spec: {serviceAccountName: ${n}, containers: [{name: app, image: registry.k8s.io/pause:3.10}]}
`,
  };
}

/** Two Helm charts of the repository (rendered by helm in the renderer), each in a namespace of its own: 10 objects. */
export function helmPlatform(name: string): CliPlatform {
  const platform = `import { HelmChart, Include, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new Include(platform, 'namespaces', { url: 'manifests/namespaces.yaml' });
    new HelmChart(platform, 'web', { chart: 'charts/web', namespace: '${name}-web' });
    new HelmChart(platform, 'worker', { chart: 'charts/worker', namespace: '${name}-worker' });
  },
});
`;
  const namespaces = ['web', 'worker']
    .map((c) => `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${name}-${c}}\n`)
    .join('---\n');
  return {
    name,
    label: '10 objects, 2 Helm charts',
    platform,
    files: { 'manifests/namespaces.yaml': namespaces, ...chartFiles('web'), ...chartFiles('worker') },
  };
}

/** Writes `p` into `dir` as a git repository with one commit (a clean work tree). */
export async function writeRepository(dir: string, p: CliPlatform): Promise<void> {
  await writePlatformFiles(dir, { name: p.name, platform: p.platform, files: p.files });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], {
      cwd: dir,
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'bench platform');
}
