import { describe, expect, it } from 'vitest';
import { scaffoldFiles } from '../../src/cli/actions/init.js';
import { checkPreviewWorkflows } from '../harness/preview-workflows.js';

describe('the preview workflows groundwork init writes', () => {
  it('render with the base branch’s Groundwork, no secret and a read-only token; comment from the data only', async () => {
    const files = await scaffoldFiles({ name: 'team-platform', version: '1.2.3' });
    const text = (path: string) => files.find((f) => f.path === path)?.text ?? '';
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['.github/workflows/preview.yml', '.github/workflows/preview-comment.yml']),
    );
    checkPreviewWorkflows(
      text('.github/workflows/preview.yml'),
      text('.github/workflows/preview-comment.yml'),
      {
        tool: 'base/node_modules/.bin/groundwork',
        commentTool: 'node_modules/.bin/groundwork',
      },
    );
  });
});
