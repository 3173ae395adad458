import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { checkPreviewWorkflows } from '../harness/preview-workflows.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe("this repository's PR preview workflows", () => {
  it('render in a job without secrets and comment from the data in a workflow_run job (issue 31, item 6)', () => {
    checkPreviewWorkflows(
      read('.github/workflows/preview.yml'),
      read('.github/workflows/preview-comment.yml'),
      {
        tool: 'node base/bin/groundwork.js',
        commentTool: 'node bin/groundwork.js',
      },
    );
  });
});
