import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';
import { hasCode } from '../core/errors.js';
import { checkContext, kubeconfigInvalid, kubeconfigSource } from './kubeconfig-source.js';

/** A kubeconfig, as far as the context check reads it. */
const kubeconfigSchema = z.looseObject({
  contexts: z.array(z.looseObject({ name: z.string() })).nullish(),
});

/** The largest kubeconfig file read here (kubectl's are a few KiB; embedded certificates add tens). */
const MAX_BYTES = 4 << 20;

/**
 * Checks, without loading the cluster client or contacting any server, that the kubeconfig the
 * flags select exists and parses, and that `--context` names one of its contexts (several
 * `$KUBECONFIG` files: any of them, as kubectl merges them). Throws `KubeconfigNotFound`,
 * `KubeconfigInvalid` (naming the file and line, never its contents: a kubeconfig holds
 * credentials) or `UnknownContext` (naming the contexts that exist). With neither `--kubeconfig`
 * nor `--context`, finding no kubeconfig at all is left to the cluster client, so a command that
 * fails earlier (synth) says that first. Cheap: meant to run before synth.
 */
export async function checkKubeconfigSelection(
  flags: { kubeconfig?: string; context?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  let source: ReturnType<typeof kubeconfigSource>;
  try {
    source = kubeconfigSource(flags.kubeconfig, env);
  } catch (err) {
    if (hasCode(err, 'KubeconfigNotFound') && !flags.kubeconfig && !flags.context) return;
    throw err;
  }
  if (source.kind === 'in-cluster') {
    // The client names the service account's only context so.
    if (flags.context) checkContext(flags.context, ['inClusterContext'], 'in-cluster');
    return;
  }
  const names: string[] = [];
  for (const path of source.paths) names.push(...(await contextsOf(path)));
  if (flags.context) checkContext(flags.context, [...new Set(names)], source.paths.join(', '));
}

/** The context names of one kubeconfig file; `KubeconfigInvalid` without its contents when it cannot be read. */
async function contextsOf(path: string): Promise<string[]> {
  const invalid = (message: string) => kubeconfigInvalid(path, message);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw invalid(`cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (text.length > MAX_BYTES) throw invalid(`larger than ${MAX_BYTES} bytes`);
  let doc: unknown;
  try {
    doc = parse(text, { prettyErrors: false });
  } catch (err) {
    const line = (err as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw invalid(`not valid YAML${line ? ` (line ${line})` : ''}`);
  }
  const parsed = kubeconfigSchema.safeParse(doc ?? {});
  if (!parsed.success) throw invalid('not a kubeconfig: contexts must be a list of named contexts');
  return (parsed.data.contexts ?? []).map((c) => c.name);
}
