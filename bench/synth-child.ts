// One synth in its own process (for its peak memory): `node dist/bench/synth-child.js <groundwork|plain> <scale>`.
// scale 1 = 1,000 operators, 1,000 machine configs and 5,000 plain objects.
import { ApiObject, App, Chart } from 'cdk8s';
import { z } from 'zod';
import { PlatformOperator } from '../src/olm/constructs/platform-operator.js';
import { MachineConfig } from '../src/machine-config/index.js';
import { definePlatform } from '../src/render/synth/define-platform.js';
import { Platform } from '../src/render/synth/platform.js';
import { synthesizeDefinition } from '../src/render/synth/synthesize.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { renderStream } from '../src/render/output/write.js';
import type { K8sObject } from '../src/core/object.js';

const [mode, scaleArg, objectsFile] = process.argv.slice(2) as ['groundwork' | 'plain', string, string];
const scale = Number(scaleArg);
const counts = {
  operators: Math.round(1000 * scale),
  machineConfigs: Math.round(1000 * scale),
  plain: Math.round(5000 * scale),
};

const definition = definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    for (let i = 0; i < counts.operators; i++) {
      new PlatformOperator(platform, `op-${i}`, {
        package: `operator-${i}`,
        channel: 'stable',
        namespace: `op-${i}`,
        installMode: 'AllNamespaces',
      });
    }
    for (let i = 0; i < counts.machineConfigs; i++) {
      new MachineConfig(platform, `mc-${i}`, {
        pool: 'worker',
        files: [{ path: `/etc/groundwork/bench-${i}.conf`, mode: '0644', contents: `setting-${i}=on\n` }],
      });
    }
    for (let i = 0; i < counts.plain; i++) {
      new ApiObject(platform, `cm-${i}`, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, namespace: `op-${i % Math.max(1, counts.operators)}` },
        data: { index: String(i) },
      });
    }
  },
});

const config = {
  name: 'bench',
  entry: 'bench',
  overlays: 'overlays',
  defaultOverlay: 'bench',
  catalogs: [],
  graphs: [],
};
let objects: number;
let bytes: number;
const started = performance.now();
if (mode === 'groundwork') {
  const result = await synthesizeDefinition(definition, {}, { config, overlay: 'bench', dir: '.' });
  objects = result.manifests.length;
  bytes = renderStream(result, 'yaml').length;
  const ms = performance.now() - started;
  // Hand the exact objects to the plain run (outside the timed section).
  writeFileSync(objectsFile, JSON.stringify(result.manifests.map((m) => m.object)));
  process.stdout.write(
    JSON.stringify({ mode, scale, objects, bytes, ms, maxRssMb: process.resourceUsage().maxRSS / 1024 }),
  );
} else {
  // The same objects as plain cdk8s ApiObjects in one Chart, rendered with app.synthYaml().
  const reference = JSON.parse(readFileSync(objectsFile, 'utf8')) as K8sObject[];
  const t = performance.now();
  const app = new App();
  const chart = new Chart(app, 'plain', { disableResourceNameHashes: true });
  reference.forEach((o, i) => new ApiObject(chart, `o${i}`, o));
  const yaml = app.synthYaml();
  objects = reference.length;
  bytes = yaml.length;
  const ms = performance.now() - t;
  process.stdout.write(
    JSON.stringify({ mode, scale, objects, bytes, ms, maxRssMb: process.resourceUsage().maxRSS / 1024 }),
  );
}
