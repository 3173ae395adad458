import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { readBoundedFile, readConfinedFile } from '../core/confined-file.js';
import { GroundworkError } from '../core/errors.js';

/** One cluster of a fleet: the kube context that reaches it (and the kubeconfig that holds it). */
export interface FleetMember {
  /** The fleet's name for it. @default the context */
  readonly name: string;
  readonly context: string;
  /** @default $KUBECONFIG, else ~/.kube/config */
  readonly kubeconfig?: string;
  /**
   * The fleet file that named `kubeconfig`: such a kubeconfig runs no credential plugin unless the
   * operator names it too (src/cluster/kubeconfig-trust.ts).
   */
  readonly kubeconfigNamedBy?: string;
}

/** A fleet file as written. Each `.describe()` is its entry in docs/fleet-yaml.md (`npm run docs`). */
export const fleetFileSchema = z
  .object({
    clusters: z
      .array(
        z
          .object({
            name: z
              .string()
              .min(1)
              .optional()
              .describe("The fleet's name for the cluster. Default: the context."),
            context: z.string().min(1).describe('The kubeconfig context that reaches the cluster.'),
            kubeconfig: z
              .string()
              .min(1)
              .optional()
              .describe(
                "The kubeconfig file holding the context (default: $KUBECONFIG, else ~/.kube/config; `~/` is the home directory). Never inside the repository; from the repository's own fleet.yaml only under ~/.kube or a directory of KUBECONFIG or --kubeconfig. Its credential plugins run only when you name it yourself (KUBECONFIG or --kubeconfig).",
              ),
          })
          .strict(),
      )
      .min(1, 'list at least one cluster')
      .describe('The clusters of the fleet, at least one; each name once.'),
  })
  .strict();

/**
 * Reads a fleet file:
 *
 * ```yaml
 * clusters:
 *   - name: prod-eu-1          # optional, defaults to the context
 *     context: prod-eu-1
 *     kubeconfig: ~/.kube/prod # optional
 * ```
 *
 * Throws `InvalidFleetFile` naming the file and line of each problem. Pure.
 */
export function parseFleetFile(text: string, file: string): FleetMember[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const fail = (message: string, at?: number): never => {
    throw new GroundworkError({
      code: 'InvalidFleetFile',
      subject: at ? `${file}:${at}` : file,
      message,
      fix: 'a fleet file is "clusters:" with a list of {name?, context, kubeconfig?}',
    });
  };
  if (doc.errors[0]) fail(doc.errors[0].message.split('\n')[0]!, doc.errors[0].linePos?.[0]?.line);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const parsed = fleetFileSchema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    let at: number | undefined;
    for (let len = issue.path.length; len > 0 && at === undefined; len--) {
      const node = doc.getIn(issue.path.slice(0, len) as (string | number)[], true) as
        { range?: [number, number, number] } | undefined;
      if (node?.range) at = lines.linePos(node.range[0]).line;
    }
    fail(`${issue.path.join('.') || '(root)'}: ${issue.message}`, at);
  }
  const members = parsed.data!.clusters.map((c) => ({
    name: c.name ?? c.context,
    context: c.context,
    ...(c.kubeconfig ? { kubeconfig: c.kubeconfig, kubeconfigNamedBy: file } : {}),
  }));
  const seen = new Set<string>();
  for (const m of members) {
    if (seen.has(m.name)) fail(`cluster ${m.name} is listed twice`);
    seen.add(m.name);
  }
  return members;
}

/** A fleet file is a short list of contexts: a bound far above any real one. */
const FLEET_FILE_MAX_BYTES = 1 << 20;

/**
 * Reads and validates a fleet file (`parseFleetFile`): the user's own `file` (`--fleet`, read
 * bounded; `InvalidFleetFile` when it does not exist), or the repository's `path` under `root` (a
 * repository's file: confined to the checkout; undefined when the repository has none). Too large,
 * not a regular file or a link out of the checkout: `FileTooLarge`, `NotARegularFile`,
 * `PathOutsideCheckout`, naming the file, never quoting it.
 */
export async function loadFleetFile(source: { readonly file: string }): Promise<FleetMember[]>;
export async function loadFleetFile(source: {
  readonly root: string;
  readonly path: string;
}): Promise<FleetMember[] | undefined>;
export async function loadFleetFile(
  source: { readonly file: string } | { readonly root: string; readonly path: string },
): Promise<FleetMember[] | undefined> {
  if ('file' in source) {
    if (!existsSync(source.file))
      throw new GroundworkError({
        code: 'InvalidFleetFile',
        subject: source.file,
        message: 'not found',
        fix: 'name a fleet file ("clusters:" with a list of {name?, context, kubeconfig?}), or leave --fleet out to read every context of the kubeconfig',
      });
    const text = await readBoundedFile(source.file, { maxBytes: FLEET_FILE_MAX_BYTES, what: 'fleet file' });
    return parseFleetFile(text, source.file);
  }
  if (!existsSync(join(source.root, source.path))) return undefined;
  const text = await readConfinedFile({
    root: source.root,
    path: source.path,
    maxBytes: FLEET_FILE_MAX_BYTES,
    what: 'fleet file',
  });
  return parseFleetFile(text, source.path);
}
