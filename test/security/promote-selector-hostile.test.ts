import { describe, expect, it } from 'vitest';
import { runPromote } from '../../src/cli/actions/fleet.js';
import type { PromoteFlags } from '../../src/cli/fleet-flags.js';

// `promote --hub --selector LABELS` (issue 34): the selector comes from the command line (a CI
// job's variable, a script's argument). It is parsed strictly before anything is read or pushed:
// a malformed one is InvalidFlag that quotes nothing of it, never a selection of every member.

const promoteWith = (selector: string, hub: string | null = '/nonexistent/hub.kubeconfig') =>
  runPromote(
    'prod',
    { dir: '/nonexistent/project', selector, ...(hub ? { hub } : {}) } as PromoteFlags,
    () => undefined,
  );

describe('promote --selector: hostile values', () => {
  it.each([
    ['empty', ''],
    ['spaces only', '   '],
    ['too long', `region=${'e'.repeat(2000)}`],
    ['too many terms', Array.from({ length: 17 }, (_, i) => `k${i}=v`).join(',')],
    ['a newline and escape in a value', 'region=eu\n\u001b[2Jowned'],
    ['shell text', 'region=eu;rm -rf /'],
    ['a set expression', 'region in (eu,us)'],
    ['conflicting values', 'region=eu,region=us'],
    ['a bang before a pair', '!region=eu'],
  ])('%s is InvalidFlag, quoting nothing of it', async (_name, selector) => {
    const err = await promoteWith(selector).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'InvalidFlag', subject: 'promote --selector' });
    const text = `${(err as Error).message} ${(err as { fix?: string }).fix ?? ''}`;
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('rm -rf');
    expect(text).not.toContain('owned');
  });

  it('without --hub it is refused (kube contexts are not selected by labels)', async () => {
    await expect(promoteWith('region=eu', null)).rejects.toMatchObject({
      code: 'InvalidFlag',
      message: expect.stringContaining('needs --hub'),
    });
  });
});
