// Attack (issue 31, item 6): the preview workflow `groundwork init` ships ran `npm install` on the
// pull request's package.json (its lifecycle scripts ran) and then the pull request's own
// groundwork, in a job holding the redaction key. The scaffolded pair is checked as data
// (`checkPreviewWorkflows`), and so is each way back to that shape: the check must report it.
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { scaffoldFiles } from '../../src/cli/actions/init.js';
import { checkPreviewWorkflows } from '../harness/preview-workflows.js';

const PREVIEW = '.github/workflows/preview.yml';
const COMMENT = '.github/workflows/preview-comment.yml';
const TOOLS = { tool: 'base/node_modules/.bin/groundwork', commentTool: 'node_modules/.bin/groundwork' };

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: { render: { env?: Record<string, string>; steps: Step[] } };
}

async function scaffolded(): Promise<{ preview: string; comment: string }> {
  const files = await scaffoldFiles({ name: 'team-platform', version: '1.2.3' });
  const text = (path: string) => files.find((f) => f.path === path)?.text ?? '';
  return { preview: text(PREVIEW), comment: text(COMMENT) };
}

const renderStep = (w: Workflow) => w.jobs.render.steps.find((s) => s.run?.includes(' preview '))!;
const headInstall = (w: Workflow) =>
  w.jobs.render.steps.find((s) => s['working-directory'] === 'head' && s.run?.startsWith('npm'))!;

/** Ways a maintainer (or a pull request editing its own workflow) could bring the attack back. */
const HOSTILE: [string, (w: Workflow) => void][] = [
  [
    'the redaction key in the render step',
    (w) => {
      renderStep(w).env!.GROUNDWORK_REDACTION_KEY = '${{ secrets.GROUNDWORK_REDACTION_KEY }}';
    },
  ],
  [
    'a secret in the render job',
    (w) => {
      w.jobs.render.env = { TOKEN: '${{ secrets.DEPLOY_TOKEN }}' };
    },
  ],
  [
    "the job's token in a step",
    (w) => {
      renderStep(w).env!.GH_TOKEN = '${{ github.token }}';
    },
  ],
  [
    "npm ci of the pull request's libraries without --ignore-scripts",
    (w) => {
      headInstall(w).run = 'npm ci --no-audit --no-fund';
    },
  ],
  [
    "npm install of the pull request's package.json",
    (w) => {
      headInstall(w).run = 'npm install --ignore-scripts';
    },
  ],
  [
    "the pull request's own groundwork renders",
    (w) => {
      const step = renderStep(w);
      step.run = step.run!.replace('base/node_modules/.bin/groundwork', 'head/node_modules/.bin/groundwork');
    },
  ],
  [
    'pull_request_target',
    (w) => {
      w.on = { pull_request_target: null };
    },
  ],
  [
    'a write permission',
    (w) => {
      w.permissions = { contents: 'read', 'pull-requests': 'write' };
    },
  ],
  [
    'a checkout that leaves its token in .git/config',
    (w) => {
      w.jobs.render.steps.find((s) => s.with?.path === 'head')!.with!['persist-credentials'] = true;
    },
  ],
  [
    '--trust-repository on the render',
    (w) => {
      const step = renderStep(w);
      step.run = step.run!.replace('--all-overlays', '--all-overlays --trust-repository');
    },
  ],
];

describe('the preview workflows groundwork init scaffolds (issue 31, item 6)', () => {
  it('pass the shape check: no secret where pull-request content runs, npm ci --ignore-scripts, the base branch’s Groundwork', async () => {
    const { preview, comment } = await scaffolded();
    expect(preview).not.toBe('');
    expect(comment).not.toBe('');
    checkPreviewWorkflows(preview, comment, TOOLS);
  });

  it.each(HOSTILE)('a variant with %s is reported', async (_what, edit) => {
    const { preview, comment } = await scaffolded();
    const doc = parse(preview) as Workflow;
    edit(doc);
    const hostile = stringify(doc);
    // The edit really changed the workflow, and the unedited round trip still passes.
    expect(hostile).not.toBe(stringify(parse(preview)));
    checkPreviewWorkflows(stringify(parse(preview)), comment, TOOLS);
    // Reported by one of the check's assertions, not by a crash on an unexpected shape.
    let reported: unknown;
    try {
      checkPreviewWorkflows(hostile, comment, TOOLS);
    } catch (err) {
      reported = err;
    }
    expect((reported as Error | undefined)?.name).toBe('AssertionError');
  });
});
