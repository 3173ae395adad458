import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { canonicalize } from '../../src/render/synth/canonical.js';
import { parseRendered, placeRendered } from '../../src/render/recorded/rendered-objects.js';

const run = promisify(execFile);

/**
 * What the real `helm template <release> <chart>` gives for the flags groundwork renders with
 * (`--namespace`, `--kube-version v1.29.0`, `--include-crds`, `--skip-tests`) and `args` after them,
 * run with a fresh empty HOME and XDG directories: the parse problems, and the objects placed in
 * `namespace` as synth places them, canonicalized.
 */
export async function helmTemplate(
  helm: string,
  release: string,
  chart: string,
  opts: { namespace: string; args?: string[] },
): Promise<{
  problems: unknown[];
  objects: ReturnType<typeof placeRendered>['objects'][number]['object'][];
}> {
  const home = mkdtempSync(join(tmpdir(), 'gw-helm-home-'));
  const { stdout } = await run(
    helm,
    [
      'template',
      release,
      chart,
      '--namespace',
      opts.namespace,
      '--kube-version',
      'v1.29.0',
      '--include-crds',
      '--skip-tests',
      ...(opts.args ?? []),
    ],
    { env: { PATH: '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: home, XDG_CACHE_HOME: home } },
  );
  const parsed = parseRendered(stdout);
  return {
    problems: parsed.problems,
    objects: placeRendered(parsed.objects, { namespace: opts.namespace }).objects.map((o) =>
      canonicalize(o.object),
    ),
  };
}

/** Orders objects by `kind/name`, for comparing two renders as sets. */
export function byKindAndName(
  a: { kind: string; metadata: { name: string } },
  b: { kind: string; metadata: { name: string } },
): number {
  return `${a.kind}/${a.metadata.name}`.localeCompare(`${b.kind}/${b.metadata.name}`);
}
