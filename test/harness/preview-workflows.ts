import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parse } from 'yaml';

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Job {
  if?: string;
  permissions?: unknown;
  steps: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

/** Every `run:` script of a workflow, and every npm command in them. */
function runs(w: Workflow): string[] {
  return Object.values(w.jobs).flatMap((j) => j.steps.flatMap((s) => (s.run ? [s.run] : [])));
}

/**
 * Checks the shipped pair of preview workflows as data (issue 31, item 6): the job that touches
 * pull-request content has no secret, a read-only token, installs with `npm ci --ignore-scripts`,
 * renders with the base branch's Groundwork (`tool`, a path under `base/`) and uploads data; the
 * job that may write runs on `workflow_run` from the default branch, checks out nothing of the pull
 * request, and reads the data with `groundwork preview --from-json` (`commentTool`).
 */
export function checkPreviewWorkflows(
  previewText: string,
  commentText: string,
  opts: { tool: string; commentTool: string },
): void {
  const preview = parse(previewText) as Workflow;
  const comment = parse(commentText) as Workflow;

  // The untrusted job: pull_request only, read-only, no secret anywhere in the file.
  expect(Object.keys(preview.on)).toEqual(['pull_request']);
  expect(preview.permissions).toEqual({ contents: 'read' });
  const code = previewText
    .split('\n')
    .filter((l) => !l.trim().startsWith('#'))
    .join('\n');
  expect(code).not.toMatch(/secrets\.|pull_request_target|GROUNDWORK_REDACTION_KEY|github\.token/);
  const render = preview.jobs.render!;
  expect(render.permissions).toBeUndefined();
  const checkouts = render.steps.filter((s) => s.uses?.startsWith('actions/checkout@'));
  expect(checkouts.map((s) => [s.with?.path, s.with?.ref, s.with?.['persist-credentials']])).toEqual([
    ['base', '${{ github.event.pull_request.base.sha }}', false],
    ['head', '${{ github.event.pull_request.head.sha }}', false],
  ]);
  const npm = runs(preview).filter((r) => /\bnpm\b|\bnpx\b/.test(r));
  expect(npm.length).toBe(2);
  for (const r of npm) expect(r).toMatch(/^npm ci --ignore-scripts\b/);
  const installs = render.steps.filter((s) => s.run?.startsWith('npm ci'));
  expect(installs.map((s) => s['working-directory'])).toEqual(['base', 'head']);
  const renderStep = render.steps.find((s) => s.run?.includes(' preview '))!;
  expect(renderStep.run).toContain(`${opts.tool} preview --dir head`);
  expect(opts.tool.replace(/^node /, '')).toMatch(/^base\//);
  expect(renderStep.run).toContain('--output json');
  expect(renderStep.run).not.toContain('--trust-repository');
  expect(render.steps.some((s) => s.uses?.startsWith('actions/upload-artifact@'))).toBe(true);
  expect(render.steps.some((s) => s.uses?.startsWith('actions/github-script@'))).toBe(false);

  // The render step, run with a stand-in for Groundwork: the exit code and the pull request number
  // are data; a failed preview leaves no preview.json, and the step itself passes so the data uploads.
  const runRender = (status: number) => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-render-step-'));
    const tool = join(dir, 'tool');
    writeFileSync(tool, `#!/bin/sh\necho '{"kind":"Preview"}'\necho oops >&2\nexit ${status}\n`);
    chmodSync(tool, 0o755);
    const r = spawnSync(
      'bash',
      ['-e', '-c', renderStep.run!.replace(`${opts.tool} preview`, `${tool} preview`)],
      {
        cwd: dir,
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '',
          BASE_REF: 'main',
          HEAD_SHA: 'f'.repeat(40),
          PR_NUMBER: '7',
          GITHUB_STEP_SUMMARY: join(dir, 'summary'),
        },
      },
    );
    expect(r.status).toBe(0);
    const data = (f: string) => {
      try {
        return readFileSync(join(dir, 'preview-data', f), 'utf8');
      } catch {
        return undefined;
      }
    };
    return { exit: data('exit-code'), pr: data('pr-number'), json: data('preview.json') };
  };
  expect(runRender(0)).toEqual({ exit: '0\n', pr: '7\n', json: '{"kind":"Preview"}\n' });
  expect(runRender(2)).toEqual({ exit: '2\n', pr: '7\n', json: undefined });

  // The trusted job: workflow_run of that workflow, writes only a comment and a status.
  expect(comment.on).toEqual({ workflow_run: { workflows: [preview.name], types: ['completed'] } });
  expect(comment.permissions).toEqual({ actions: 'read', 'pull-requests': 'write', statuses: 'write' });
  const job = Object.values(comment.jobs)[0]!;
  expect(job.if).toBe("github.event.workflow_run.event == 'pull_request'");
  for (const s of job.steps.filter((x) => x.uses?.startsWith('actions/checkout@'))) {
    expect(s.with).toEqual({ 'persist-credentials': false }); // the default branch, nothing else
  }
  for (const r of runs(comment).filter((x) => /\bnpm\b/.test(x)))
    expect(r).toMatch(/^npm ci --ignore-scripts\b/);
  const read = job.steps.find((s) => s.id === 'render')!;
  expect(read.run).toContain(
    `${opts.commentTool} preview --from-json "$DATA/preview.json" --output markdown`,
  );
  // The data directory is read, never executed or sourced.
  for (const line of read.run!.split('\n').filter((l) => l.includes('$DATA')))
    expect(line).toMatch(/--from-json "\$DATA\/preview\.json"|\[ -f "\$DATA\/preview\.json" \]/);
  const post = job.steps.find((s) => s.uses?.startsWith('actions/github-script@'))!;
  const script = String(post.with?.script);
  expect(script).toContain('/^[0-9]{1,10}$/.test(number)');
  expect(script).toContain('pr.head.sha !== run.head_sha');
  expect(script).toContain("f.filename.startsWith('.github/')");
  expect(script).toContain('createCommitStatus');

  // No ${{ }} expression is expanded inside a shell script (values arrive through env).
  for (const r of [...runs(preview), ...runs(comment)]) expect(r).not.toContain('${{');

  // The comment job's render step, run: no data is status 3; the tool's exit code is kept.
  const dir = mkdtempSync(join(tmpdir(), 'gw-workflow-'));
  const out = (status: number) => {
    const tool = join(dir, 'tool');
    writeFileSync(tool, `#!/bin/sh\necho '<!-- groundwork-preview -->'\nexit ${status}\n`);
    chmodSync(tool, 0o755);
    const script = read.run!.replace(`${opts.commentTool} preview`, `${tool} preview`);
    const r = spawnSync('bash', ['-c', script], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        DATA: join(dir, 'data'),
        OUT: join(dir, 'out'),
        GITHUB_OUTPUT: join(dir, `output-${status}`),
      },
    });
    expect(r.status).toBe(0);
    return readFileSync(join(dir, `output-${status}`), 'utf8');
  };
  expect(out(0)).toBe('status=3\n');
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'data', 'preview.json'), '{}');
  expect(out(1)).toBe('status=1\n');
  expect(readFileSync(join(dir, 'out', 'comment.md'), 'utf8')).toBe('<!-- groundwork-preview -->\n');
}
