// The scheduled propose workflow `groundwork init` ships (issue 37) holds a forge token that may
// push branches and open pull requests. It must never run a pull request's content, hold no other
// credential (no cluster's), give the token to one step through env from the secret store, and
// ask for no permission beyond contents and pull-requests write. The scaffolded file is checked as
// data (`checkProposeWorkflow`), and so is each way away from that shape: the check must report it.
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { scaffoldFiles } from '../../src/cli/actions/init.js';
import { checkProposeWorkflow } from '../harness/propose-workflow.js';

const PROPOSE = '.github/workflows/propose.yml';
const TOOL = 'node_modules/.bin/groundwork';

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  env?: Record<string, string>;
  jobs: { propose: { env?: Record<string, string>; steps: Step[] } };
}

async function scaffolded(): Promise<string> {
  const files = await scaffoldFiles({ name: 'team-platform', version: '1.2.3' });
  return files.find((f) => f.path === PROPOSE)?.text ?? '';
}

const proposeStep = (w: Workflow) => w.jobs.propose.steps.find((s) => s.run?.includes(' propose'))!;

const HOSTILE: [string, (w: Workflow) => void][] = [
  ['a pull_request_target trigger', (w) => void (w.on.pull_request_target = null)],
  ['a pull_request trigger', (w) => void (w.on.pull_request = null)],
  ['a push trigger', (w) => void (w.on.push = { branches: ['main'] })],
  ['another write permission', (w) => void (w.permissions['id-token'] = 'write')],
  [
    'write-all',
    (w) => void (w.permissions = { contents: 'write', 'pull-requests': 'write', actions: 'write' }),
  ],
  [
    'the token in the job env',
    (w) => void (w.jobs.propose.env = { GROUNDWORK_FORGE_TOKEN: '${{ secrets.GROUNDWORK_PROPOSE_TOKEN }}' }),
  ],
  [
    'the token in the workflow env',
    (w) => void (w.env = { GROUNDWORK_FORGE_TOKEN: '${{ secrets.GROUNDWORK_PROPOSE_TOKEN }}' }),
  ],
  [
    'the token interpolated into the script',
    (w) => {
      const s = proposeStep(w);
      s.run = `GROUNDWORK_FORGE_TOKEN=\${{ secrets.GROUNDWORK_PROPOSE_TOKEN }} ${s.run!}`;
      delete s.env;
    },
  ],
  [
    'the token written in the repository',
    (w) => void (proposeStep(w).env = { GROUNDWORK_FORGE_TOKEN: 'ghp_committedtoken' }),
  ],
  ['a cluster credential', (w) => void (proposeStep(w).env!.KUBECONFIG_DATA = '${{ secrets.KUBECONFIG }}')],
  [
    'a checkout that leaves its token in .git/config',
    (w) => {
      w.jobs.propose.steps.find((s) => s.uses?.startsWith('actions/checkout@'))!.with![
        'persist-credentials'
      ] = true;
    },
  ],
  [
    'npm install with install scripts',
    (w) => {
      w.jobs.propose.steps.find((s) => s.run?.startsWith('npm'))!.run = 'npm install';
    },
  ],
  ['--trust-repository', (w) => void (proposeStep(w).run = `${proposeStep(w).run!} --trust-repository`)],
  ['npx of whatever the registry serves', (w) => void (proposeStep(w).run = 'npx groundwork-gitops propose')],
];

describe('the propose workflow groundwork init scaffolds (issue 37)', () => {
  it('passes the shape check: schedule and dispatch only, contents and pull-requests write, the token in one step from secrets', async () => {
    const text = await scaffolded();
    expect(text).not.toBe('');
    checkProposeWorkflow(text, { tool: TOOL });
  });

  it.each(HOSTILE)('a variant with %s is reported', async (_what, edit) => {
    const text = await scaffolded();
    const doc = parse(text) as Workflow;
    edit(doc);
    const hostile = stringify(doc);
    // The edit really changed the workflow, and the unedited round trip still passes.
    expect(hostile).not.toBe(stringify(parse(text)));
    checkProposeWorkflow(stringify(parse(text)), { tool: TOOL });
    let reported: unknown;
    try {
      checkProposeWorkflow(hostile, { tool: TOOL });
    } catch (err) {
      reported = err;
    }
    expect((reported as Error | undefined)?.name).toBe('AssertionError');
  });
});
