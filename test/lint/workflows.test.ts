import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
      expect(render.run).toMatch(/status=\$\?\n\s*echo "status=\$status" >> "\$GITHUB_OUTPUT"/);
    });

    it('posts the error when preview exits 2, instead of an empty comment', () => {
      const render = steps.find((s) => s.id === 'preview')!;
      // The render step's own script, with an `npx` that fails as a bad --base does.
      const dir = mkdtempSync(join(tmpdir(), 'gw-workflow-'));
      writeFileSync(
        join(dir, 'npx'),
        '#!/bin/sh\necho "Error: origin/nope: not a revision (fix: fetch it)" >&2\nexit 2\n',
      );
      chmodSync(join(dir, 'npx'), 0o755);
      const r = spawnSync('bash', ['-c', render.run!], {
        cwd: dir,
        encoding: 'utf8',
        env: {
          PATH: `${dir}:${process.env.PATH ?? ''}`,
          BASE_REF: 'nope',
          GITHUB_OUTPUT: join(dir, 'output'),
          GITHUB_STEP_SUMMARY: join(dir, 'summary'),
        },
      });
      expect(r.status).toBe(0);
      expect(readFileSync(join(dir, 'output'), 'utf8')).toBe('status=2\n');
      const body = readFileSync(join(dir, 'preview.md'), 'utf8');
      expect(body.startsWith('<!-- groundwork-preview -->\n')).toBe(true);
      expect(body).toContain('groundwork preview failed** (exit 2)');
      expect(body).toContain('Error: origin/nope: not a revision (fix: fetch it)');
      const post = steps.find((s) => s.name === 'Post or update the preview comment')!;
      expect(post.if).toMatch(/^always\(\) && /);
    });

    it('fails the job in a last step when the gate failed', () => {
      const gate = steps[steps.length - 1]!;
      expect(gate.name).toBe('Gate the merge');
      expect(gate.if).toBe("always() && steps.preview.outputs.status != '0'");
      expect(gate.run).toContain('exit 1');
    });
  },
);
