import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { GroundworkError } from './errors.js';
import { loadManifestYaml, ManifestYamlError } from './manifest-yaml.js';
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
 * Parses multi-document YAML (or JSON) text into objects; `source` names it in errors. Read as
 * kubectl reads a manifest (`loadManifestYaml`: YAML 1.1 scalars, `0444` is 292); a key held twice
 * keeps its last value, as there.
 */
export function parseObjects(text: string, source: string): K8sObject[] {
  let documents: unknown[];
  try {
    documents = loadManifestYaml(text).documents;
  } catch (err) {
    // Where and why only: js-yaml's message quotes the text around the error.
    const failure =
      err instanceof ManifestYamlError
        ? { reason: err.message, ...(err.line !== undefined ? { line: err.line } : {}) }
        : yamlFailure(err);
    throw new GroundworkError({
      code: 'InvalidManifest',
      subject: failureLocation(source, failure),
      message: failure.reason,
    });
  }
  const out: K8sObject[] = [];
  documents.forEach((value, i) => {
    if (value === null || value === undefined) return;
    const obj = value as K8sObject & { items?: K8sObject[] };
    if (typeof obj !== 'object' || !obj.kind || !obj.apiVersion) {
      throw new GroundworkError({
        code: 'InvalidManifest',
        subject: `${source} (document ${i + 1})`,
        message: 'not a Kubernetes object: apiVersion and kind are required',
      });
    }
    if (obj.kind.endsWith('List') && Array.isArray(obj.items)) out.push(...obj.items);
    else out.push(obj);
  });
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
