import { readFileSync } from 'node:fs';
import { App } from 'cdk8s';
import { expect } from 'vitest';
import { parse } from 'yaml';
import type { K8sObject } from '../../src/core/object.js';
import { Platform } from '../../src/render/synth/platform.js';
import { Validation, type ValidationIssue } from '../../src/render/synth/validation.js';
import { dataPath } from '../../src/core/data-dir.js';

export interface Synth {
  app: App;
  platform: Platform;
  objects: K8sObject[];
  issues: readonly ValidationIssue[];
  errors: readonly ValidationIssue[];
  warnings: readonly ValidationIssue[];
}

/** Builds constructs in a fresh `Platform` (id `p`), finalizes it and returns what it emits and records. */
export function synth(build: (platform: Platform) => void, openshiftVersion = '4.16'): Synth {
  const app = new App();
  const platform = new Platform(app, 'p', { openshiftVersion });
  build(platform);
  platform.finalize();
  const issues = Validation.all(app);
  return {
    app,
    platform,
    objects: platform.toJson() as K8sObject[],
    issues,
    errors: issues.filter((i) => i.severity === 'error'),
    warnings: issues.filter((i) => i.severity === 'warning'),
  };
}

/** Asserts exactly one issue with this construct path and field, and returns it. */
export function issueAt(issues: readonly ValidationIssue[], path: string, field: string): ValidationIssue {
  const found = issues.filter((i) => i.path === path && i.field === field);
  expect(found, `issues at ${path} ${field}: ${JSON.stringify(issues, null, 1)}`).toHaveLength(1);
  return found[0]!;
}

/** The objects of one kind. */
export function ofKind(objects: readonly K8sObject[], kind: string): K8sObject[] {
  return objects.filter((o) => o.kind === kind);
}

const CRDS = `${dataPath('crds')}/`;

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  pattern?: string;
  maxLength?: number;
  minLength?: number;
  enum?: unknown[];
  nullable?: boolean;
};

/**
 * Structural-schema errors of an object against a fixture CRD's served version (types, required
 * fields, unknown fields the API server would prune, patterns, lengths). Not a full OpenAPI
 * validator: no CEL rules and no formats.
 */
export function crdErrors(crdFile: string, obj: unknown): string[] {
  const crd = parse(readFileSync(`${CRDS}${crdFile}`, 'utf8')) as {
    spec: { versions: { served: boolean; schema: { openAPIV3Schema: Schema } }[] };
  };
  const schema = crd.spec.versions.find((v) => v.served)!.schema.openAPIV3Schema;
  const errors: string[] = [];
  check(schema, obj, '', errors);
  return errors;
}

function check(s: Schema, v: unknown, path: string, errors: string[]): void {
  if (v === null && s.nullable) return;
  if (s['x-kubernetes-int-or-string']) {
    if (!(Number.isInteger(v) || typeof v === 'string'))
      errors.push(`${path}: must be an integer or a string`);
    return;
  }
  if (s.enum && !s.enum.includes(v)) errors.push(`${path}: not one of ${s.enum.join(', ')}`);
  switch (s.type) {
    case 'object': {
      if (typeof v !== 'object' || v === null || Array.isArray(v))
        return void errors.push(`${path}: must be an object`);
      const o = v as Record<string, unknown>;
      for (const r of s.required ?? []) if (!(r in o)) errors.push(`${path}.${r}: required`);
      if (path === '.metadata') return;
      for (const [k, value] of Object.entries(o)) {
        const sub =
          s.properties?.[k] ??
          (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
        if (sub) check(sub, value, `${path}.${k}`, errors);
        else if (!s['x-kubernetes-preserve-unknown-fields'])
          errors.push(`${path}.${k}: unknown field (the API server would prune it)`);
      }
      return;
    }
    case 'array':
      if (!Array.isArray(v)) return void errors.push(`${path}: must be an array`);
      v.forEach((item, i) => s.items && check(s.items, item, `${path}[${i}]`, errors));
      return;
    case 'string':
      if (typeof v !== 'string') return void errors.push(`${path}: must be a string`);
      if (s.pattern && !new RegExp(s.pattern).test(v)) errors.push(`${path}: does not match ${s.pattern}`);
      if (s.maxLength !== undefined && v.length > s.maxLength)
        errors.push(`${path}: longer than ${s.maxLength}`);
      if (s.minLength !== undefined && v.length < s.minLength)
        errors.push(`${path}: shorter than ${s.minLength}`);
      return;
    case 'integer':
      if (!Number.isInteger(v)) errors.push(`${path}: must be an integer`);
      return;
    case 'boolean':
      if (typeof v !== 'boolean') errors.push(`${path}: must be a boolean`);
      return;
    default:
      return;
  }
}

export const MC_CRD = 'machineconfiguration.openshift.io_machineconfigs.yaml';
export const MCP_CRD = 'machineconfiguration.openshift.io_machineconfigpools.yaml';
