import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Workflow {
  jobs: { preview: { steps: { name?: string; id?: string; run?: string; if?: string }[] } };
}

describe.each(['.github/workflows/preview.yml', 'templates/init/.github/workflows/preview.yml'])(
  'the PR preview workflow %s',
  (file) => {
    const steps = (parse(readFileSync(join(root, file), 'utf8')) as Workflow).jobs.preview.steps;

    it('renders the preview with a gate and keeps its exit code for after the comment is posted', () => {
      const render = steps.find((s) => s.id === 'preview')!;
      expect(render.run).toContain('groundwork preview');
      expect(render.run).toContain('--fail-on blocker');
      expect(render.run).toContain('echo "status=$?" >> "$GITHUB_OUTPUT"');
    });

    it('fails the job in a last step when the gate failed', () => {
      const gate = steps[steps.length - 1]!;
      expect(gate.name).toBe('Gate the merge');
      expect(gate.if).toBe("steps.preview.outputs.status != '0'");
      expect(gate.run).toContain('exit 1');
    });
  },
);
