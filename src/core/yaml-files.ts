import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import jsyaml from 'js-yaml';
import { GroundworkError } from './errors.js';
import type { K8sObject } from './object.js';
import { failureLocation, yamlFailure } from './parse-failure.js';

/**
 * Reads every Kubernetes object from a YAML/JSON file or, recursively, from a directory
 * (`.yaml`, `.yml`, `.json`, sorted by path). `List` documents are flattened; empty documents skipped.
 * Throws `InvalidManifest` naming the file and document for YAML errors or documents without kind.
 */
export async function readObjects(path: string): Promise<K8sObject[]> {
  const files = (await stat(path)).isDirectory() ? await listFiles(path) : [path];
  const objects: K8sObject[] = [];
  for (const file of files) objects.push(...parseObjects(await readFile(file, 'utf8'), file));
  return objects;
}

/**
 * Parses multi-document YAML (or JSON) text into objects; `source` names it in errors.
 * Uses js-yaml: manifests are read in bulk (thousands of documents per apply) and it is several
 * times faster than the `yaml` package, which Groundwork keeps for writing YAML and for overlays
 * (where it reports line numbers).
 */
export function parseObjects(text: string, source: string): K8sObject[] {
  const out: K8sObject[] = [];
  let index = 0;
  try {
    jsyaml.loadAll(text, (value: unknown) => {
      index++;
      if (value === null || value === undefined) return;
      const obj = value as K8sObject & { items?: K8sObject[] };
      if (typeof obj !== 'object' || !obj.kind || !obj.apiVersion) {
        throw new GroundworkError({
          code: 'InvalidManifest',
          subject: `${source} (document ${index})`,
          message: 'not a Kubernetes object: apiVersion and kind are required',
        });
      }
      if (obj.kind.endsWith('List') && Array.isArray(obj.items)) out.push(...obj.items);
      else out.push(obj);
    });
  } catch (err) {
    if (err instanceof GroundworkError) throw err;
    // Where and why only: js-yaml's message quotes the text around the error.
    const failure = yamlFailure(err);
    throw new GroundworkError({
      code: 'InvalidManifest',
      subject: `${failureLocation(source, failure)} (document ${index + 1})`,
      message: failure.reason,
    });
  }
  return out;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) files.push(...(await listFiles(p)));
    else if (['.yaml', '.yml', '.json'].includes(extname(e.name))) files.push(p);
  }
  return files;
}
