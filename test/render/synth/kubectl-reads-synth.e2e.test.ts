import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { renderStream } from '../../../src/render/output/write.js';
import { configMap, synthOf } from '../../harness/engine.js';
import { useCluster } from '../../harness/cluster.js';

const cluster = useCluster({ namespacePrefix: 'gw-yaml11' });

describe('synth output read by kubectl (a YAML 1.1 reader)', () => {
  it('keeps quoted strings such as Argo CD\'s "no" strings', () => {
    // Values from Argo CD's install manifests and their lookalikes: a 1.1 reader takes them as bools/numbers.
    const data = {
      'server.insecure': 'no',
      'exec.enabled': 'on',
      timeout: '1:20',
      mode: '0o17',
      hex: '0x1F',
      nil: '~',
    };
    const text = renderStream(
      synthOf([configMap(cluster.namespace, 'argocd-cmd-params-cm', data)], { overlay: 'dev' }),
      'yaml',
    );
    const file = join(mkdtempSync(join(tmpdir(), 'gw-yaml11-')), 'out.yaml');
    writeFileSync(file, text);
    const out = execFileSync(
      inject('kubectl'),
      [
        '--kubeconfig',
        cluster.kubeconfig,
        'apply',
        '--server-side',
        '--dry-run=server',
        '-f',
        file,
        '-o',
        'json',
      ],
      { encoding: 'utf8' },
    );
    expect((JSON.parse(out) as { data: unknown }).data).toEqual(data);
  });
});
