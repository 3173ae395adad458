import { z } from 'zod';
import { metadataSchema, parseClusterObject } from './cluster-object.js';

/** The fields of a CustomResourceDefinition (apiextensions.k8s.io/v1) that name the kind it defines. */
const crdKindSchema = z.looseObject({
  metadata: metadataSchema,
  spec: z.looseObject({
    group: z.string().min(1),
    names: z.looseObject({ kind: z.string().min(1) }),
  }),
});

/** The API group and kind a CRD defines. */
interface DefinedKind {
  readonly group: string;
  readonly kind: string;
}

/**
 * The kind a desired CRD defines, or undefined when its spec does not name one (the API server's
 * dry-run refuses such a CRD with its own message, so nothing is thrown here).
 */
export function definedKind(crd: unknown): DefinedKind | undefined {
  const result = crdKindSchema.safeParse(crd);
  return result.success ? { group: result.data.spec.group, kind: result.data.spec.names.kind } : undefined;
}

/**
 * The kind a live CRD defines. The API server validates CRDs, so a failure here means the data was
 * not read from one.
 * @throws ClusterObjectInvalidError naming the CRD and the missing field.
 */
export function readDefinedKind(crd: unknown): DefinedKind {
  const { spec } = parseClusterObject(crdKindSchema, crd, 'CustomResourceDefinition');
  return { group: spec.group, kind: spec.names.kind };
}
