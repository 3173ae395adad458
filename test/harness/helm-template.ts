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

/**
 * Multi-document YAML as kubectl reads it: piped to `kubectl annotate --local -f - -o json` (the
 * decoder `kubectl create` and `apply` read files with: sigs.k8s.io/yaml over go-yaml v2, into
 * unstructured objects). `--local` needs no server, so kinds whose CRD is in the same render are
 * read too (`create --dry-run=client` asks the server for every kind's mapping). The annotation
 * removal it is asked for (`groundwork.io/none-`) changes nothing, but leaves `annotations: {}` on
 * an object without annotations: that empty map is dropped again.
 */
export async function readByKubectl(kubectl: string, yaml: string): Promise<Record<string, unknown>[]> {
  const child = execFile(kubectl, ['annotate', '--local', '-f', '-', '-o', 'json', 'groundwork.io/none-'], {
    env: { PATH: '/usr/bin:/bin', HOME: mkdtempSync(join(tmpdir(), 'gw-kubectl-home-')) },
    maxBuffer: 1 << 28,
  });
  child.stdin!.end(yaml);
  const stdout = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`kubectl: ${err}`))));
  });
  // One indented JSON object per input object, each closed by a `}` at the start of a line.
  if (stdout.trim() === '') return [];
  const objects = stdout
    .split(/^\}\n(?=\{)/m)
    .map((text, i, all) => JSON.parse(i < all.length - 1 ? `${text}}` : text) as Record<string, unknown>);
  for (const o of objects) {
    const metadata = o.metadata as { annotations?: Record<string, string> };
    if (metadata.annotations && Object.keys(metadata.annotations).length === 0) delete metadata.annotations;
  }
  return objects;
}
