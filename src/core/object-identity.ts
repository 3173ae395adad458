// The identity of an object that comes from outside (the renderer's answer, a chart's or a
// kustomization's output, a file read back): checked by the apiserver's rules where it enters.
import { z } from 'zod';
import { apiVersionProblem, kindProblem, nameProblem, nameRule } from './object-name.js';
import { splitApiVersion } from './object.js';

/**
 * `apiVersion`, `kind`, `metadata.name` and `metadata.namespace` of an object, each valid by the
 * apiserver's rules: the API shapes (`apiVersionProblem`, `kindProblem`), the name by its kind's
 * rule (`nameRule`: a Namespace's a DNS-1123 label, RBAC's a path segment, most a DNS-1123
 * subdomain), the namespace a DNS-1123 label. Other fields pass through unchecked (loose
 * objects): this schema says only that the object can be named in a request path, a file name or
 * an id without meaning anything else. An issue's message quotes the value cut at 80 characters.
 *
 * @example
 * const parsed = z.array(k8sObjectIdentitySchema).safeParse(answer.objects);
 */
export const k8sObjectIdentitySchema = z
  .looseObject({
    apiVersion: z.string().max(317),
    kind: z.string().max(63),
    metadata: z.looseObject({
      name: z.string().max(253),
      namespace: z.string().max(63).optional(),
    }),
  })
  .superRefine((o, ctx) => {
    const api = apiVersionProblem(o.apiVersion);
    if (api) ctx.addIssue({ code: 'custom', path: ['apiVersion'], message: api });
    const kind = kindProblem(o.kind);
    if (kind) ctx.addIssue({ code: 'custom', path: ['kind'], message: kind });
    const name = nameProblem(o.metadata.name, nameRule(splitApiVersion(o.apiVersion).group, o.kind));
    if (name) ctx.addIssue({ code: 'custom', path: ['metadata', 'name'], message: `${o.kind} name ${name}` });
    const ns =
      o.metadata.namespace === undefined ? undefined : nameProblem(o.metadata.namespace, 'dns-label');
    if (ns) ctx.addIssue({ code: 'custom', path: ['metadata', 'namespace'], message: `namespace ${ns}` });
  });

/** An object whose identity `k8sObjectIdentitySchema` accepted. */
export type K8sObjectIdentity = z.infer<typeof k8sObjectIdentitySchema>;

/**
 * A name by `rule`, as a zod schema for flags, files and cluster data (`nameProblem`'s message).
 *
 * @example
 * z.object({ namespace: k8sNameSchema('dns-label') })
 */
export function k8sNameSchema(rule: Parameters<typeof nameProblem>[1]): z.ZodType<string> {
  return z.string().superRefine((name, ctx) => {
    const problem = nameProblem(name, rule);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}
