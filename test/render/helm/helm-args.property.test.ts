import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../../src/core/errors.js';
import { HELM_TEMPLATE_FLAGS, helmTemplateArgs } from '../../../src/render/helm/helm-args.js';
import type { HelmRequest } from '../../../src/render/recorded/render-request.js';

/** Strings a hostile platform writes into its recorded request: flags, newlines, NULs, and plain names. */
const hostile = fc.oneof(
  fc.constantFrom(
    '--post-renderer=./evil.sh',
    '--post-renderer',
    '--set-file',
    '--set-file=a=/proc/1/environ',
    '-f',
    '-fvalues.yaml',
    '--',
    '-',
    'a\n--set=x',
    'ingress',
    'v1',
    'apps/v1',
    '1.29',
  ),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: fc.constantFrom('a', '-', '.', '/', '=', '\n', 'z', '1', 'V'), maxLength: 60 }),
);

const hostileRequest = fc.record({
  releaseName: hostile,
  namespace: fc.option(hostile, { nil: undefined }),
  kubeVersion: fc.option(hostile, { nil: undefined }),
  apiVersions: fc.array(hostile, { maxLength: 3 }),
  includeCrds: fc.boolean(),
  includeTests: fc.boolean(),
});

const FLAGS = new Set<string>(HELM_TEMPLATE_FLAGS);

describe('helmTemplateArgs: properties', () => {
  it("for any recorded request, the argv's flags are exactly the builder's, and the positionals follow --", () => {
    fc.assert(
      fc.property(hostileRequest, (r) => {
        const request: HelmRequest = {
          engine: 'helm',
          path: 'platform/x',
          chart: 'c',
          values: {},
          valuesFiles: [],
          ignoreDifferences: [],
          ...r,
          ...(r.namespace === undefined ? {} : { namespace: r.namespace }),
          ...(r.kubeVersion === undefined ? {} : { kubeVersion: r.kubeVersion }),
        };
        let argv: string[];
        try {
          argv = helmTemplateArgs(request, {
            chart: '/repo/c',
            chartRoots: ['/repo'],
            valuesFiles: ['/tmp/v/values-0.yaml'],
            valuesDir: '/tmp/v',
          });
        } catch (err) {
          expect(hasCode(err, 'UnsafeToolArgument')).toBe(true);
          return;
        }
        expect(argv[0]).toBe('template');
        const dashdash = argv.indexOf('--');
        expect(dashdash).toBe(argv.length - 3);
        for (const flag of argv.slice(1, dashdash)) {
          expect(FLAGS.has(flag.split('=')[0]!), flag).toBe(true);
          expect(flag).not.toContain('\n');
          // The value after `=` never starts a flag of its own.
          if (flag.includes('=')) expect(flag.slice(flag.indexOf('=') + 1)).not.toMatch(/^-/);
        }
        expect(argv.slice(dashdash + 1)).toEqual([request.releaseName, '/repo/c']);
        expect(request.releaseName).toMatch(/^[a-z0-9][-a-z0-9.]*$/);
        expect(request.releaseName.length).toBeLessThanOrEqual(53);
      }),
      { numRuns: 5000 },
    );
  });
});
