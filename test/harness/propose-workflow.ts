import { expect } from 'vitest';
import { parse } from 'yaml';

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  env?: unknown;
  permissions?: unknown;
  container?: unknown;
  services?: unknown;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  env?: unknown;
  jobs: Record<string, Job>;
}

/** The one expression the forge token may come from: the secret store, else the job's own token. */
export const PROPOSE_TOKEN = '${{ secrets.GROUNDWORK_PROPOSE_TOKEN || github.token }}';

/**
 * Checks the scheduled propose workflow `groundwork init` ships, as data (issue 37): it runs on a
 * schedule and by hand only (no pull_request, no pull_request_target: never a pull request's
 * content), its token may write contents and pull requests and nothing else, the forge token
 * reaches exactly one step, through `env` from the secret store (`PROPOSE_TOKEN`), no other secret
 * or cluster credential appears, the checkout leaves no token in .git/config, installs run no
 * install script, and `groundwork propose` publishes (no --dry-run, no --trust-repository) with the
 * installed Groundwork (`tool`). Fails with an AssertionError naming what is wrong.
 */
export function checkProposeWorkflow(text: string, opts: { tool: string }): void {
  const w = parse(text) as Workflow;
  expect(Object.keys(w.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
  expect(w.permissions).toEqual({ contents: 'write', 'pull-requests': 'write' });
  expect(w.env).toBeUndefined();
  const code = text
    .split('\n')
    .filter((l) => !l.trim().startsWith('#'))
    .join('\n');
  expect(code).not.toMatch(/pull_request/);
  expect(code).not.toMatch(/kube|KUBE|oc login|--token[ =]|aws-actions|azure\/|google-github-actions/);
  // The one credential, once.
  expect(code.match(/secrets\./g) ?? []).toHaveLength(1);
  expect(code.match(/github\.token/g) ?? []).toHaveLength(1);
  const jobs = Object.values(w.jobs);
  expect(jobs).toHaveLength(1);
  const job = jobs[0]!;
  expect([job.env, job.permissions, job.container, job.services]).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
  const withToken = job.steps.filter((s) => JSON.stringify(s).includes('secrets.'));
  expect(withToken).toHaveLength(1);
  const step = withToken[0]!;
  expect(step.env).toEqual({ GROUNDWORK_FORGE_TOKEN: PROPOSE_TOKEN });
  expect(step.run?.trim()).toMatch(new RegExp(`^${escape(opts.tool)} propose( --forge github)?$`));
  for (const s of job.steps) {
    if (s.uses?.startsWith('actions/checkout@')) expect(s.with?.['persist-credentials']).toBe(false);
    // No ${{ }} expression is expanded inside a shell script (values arrive through env).
    if (s.run) expect(s.run).not.toContain('${{');
    if (s.run && /\bnpm\b|\bnpx\b/.test(s.run)) expect(s.run).toMatch(/^npm ci --ignore-scripts\b/);
  }
  const propose = job.steps.filter((s) => s.run?.includes(' propose'));
  expect(propose).toEqual([step]);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
