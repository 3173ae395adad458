import { describe, expect, it } from 'vitest';
import { hubCrds } from '../../src/hub/hub-crds.js';
import { memberReportSchema } from '../../src/hub/member-schema.js';

type Schema = {
  type?: string;
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: unknown;
};

/** Every node of an OpenAPI schema with its path. */
function* nodes(s: Schema, path: string): Generator<[string, Schema]> {
  yield [path, s];
  for (const [k, v] of Object.entries(s.properties ?? {})) yield* nodes(v, `${path}.${k}`);
  if (s.items) yield* nodes(s.items, `${path}[]`);
}

/** An upper bound of the JSON size of any value the schema accepts (keys, quotes, commas included). */
function maxJsonBytes(s: Schema): number {
  if (s.enum) return Math.max(...s.enum.map((e) => JSON.stringify(e).length));
  switch (s.type) {
    case 'string':
      // maxLength counts characters (the apiserver's JSON may escape one into 6 bytes: \u003c).
      return 2 + s.maxLength!;
    case 'integer':
    case 'number':
      return 17;
    case 'boolean':
      return 5;
    case 'array':
      return 2 + s.maxItems! * (maxJsonBytes(s.items!) + 1);
    case 'object':
      return (
        2 + Object.entries(s.properties ?? {}).reduce((n, [k, v]) => n + k.length + 4 + maxJsonBytes(v), 0)
      );
    default:
      throw new Error(`no bound for ${JSON.stringify(s)}`);
  }
}

const crds = hubCrds();
const schemaOf = (plural: string) =>
  (
    crds.find((c) => c.metadata.name === `${plural}.hub.groundwork.io`)!.spec as {
      versions: { schema: { openAPIV3Schema: Schema } }[];
    }
  ).versions[0]!.schema.openAPIV3Schema;

describe('the hub CRDs', () => {
  it('are FleetMember, MemberRegistration and FleetRollout, namespaced, with a status subresource', () => {
    expect(crds.map((c) => c.metadata.name)).toEqual([
      'fleetmembers.hub.groundwork.io',
      'memberregistrations.hub.groundwork.io',
      'fleetrollouts.hub.groundwork.io',
    ]);
    for (const c of crds) {
      const spec = c.spec as { scope: string; versions: { subresources: unknown }[] };
      expect(spec.scope).toBe('Namespaced');
      expect(spec.versions[0]!.subresources).toEqual({ status: {} });
    }
  });

  it.each(['fleetmembers', 'memberregistrations', 'fleetrollouts'])(
    '%s: every spec and status field is bounded',
    (plural) => {
      const root = schemaOf(plural);
      const unbounded: string[] = [];
      for (const part of ['spec', 'status'])
        for (const [path, s] of nodes(root.properties![part]!, part)) {
          if (s.type === 'string' && s.maxLength === undefined && !s.enum) unbounded.push(path);
          if (s.type === 'array' && s.maxItems === undefined) unbounded.push(path);
          if (s.type === 'integer' && (s.minimum === undefined || s.maximum === undefined))
            unbounded.push(path);
          if (s.type === 'object' && s.additionalProperties !== undefined && s.maxProperties === undefined)
            unbounded.push(path);
          if (s.type === undefined && !s.enum) unbounded.push(`${path} (no type)`);
        }
      expect(unbounded).toEqual([]);
    },
  );

  it('bounds a report at 32 K characters at most, whatever it holds', () => {
    const bound = maxJsonBytes(schemaOf('fleetmembers').properties!.status!);
    expect(bound).toBeLessThan(32 * 1024);
    // The bound is real: a report with every list full and every text at its limit parses.
    const s = (n: number) => 'x'.repeat(n);
    const full = memberReportSchema.parse({
      sequence: 1,
      reportedAt: '2026-11-28T02:00:00Z',
      ready: { status: 'False', reason: 'A'.repeat(64), message: s(512) },
      drift: { count: 7, items: Array.from({ length: 5 }, () => ({ object: s(256), type: 'modified' })) },
      pending: Array.from({ length: 10 }, () => ({ stage: s(64), message: s(256) })),
      openshift: {
        operatorPins: Array.from({ length: 30 }, () => ({
          subscription: s(128),
          pin: s(128),
          installed: s(128),
          state: 'waiting',
        })),
      },
    });
    expect(JSON.stringify(full).length).toBeLessThan(bound);
  });

  it('refuses what the bounds refuse, in the zod schema the CRD is made from', () => {
    const base = { sequence: 1, reportedAt: '2026-11-28T02:00:00Z', ready: { status: 'True', reason: 'Ok' } };
    expect(memberReportSchema.safeParse(base).success).toBe(true);
    for (const bad of [
      { ...base, ready: { status: 'Yes', reason: 'Ok' } },
      { ...base, ready: { status: 'True', reason: 'not camel' } },
      { ...base, revision: { applied: 'main@sha1:xyz' } },
      {
        ...base,
        drift: { count: 1, items: Array.from({ length: 6 }, () => ({ object: 'a', type: 'extra' })) },
      },
      { ...base, reportedAt: 'yesterday' },
      { ...base, sequence: -1 },
    ])
      expect(memberReportSchema.safeParse(bad).success).toBe(false);
  });
});
