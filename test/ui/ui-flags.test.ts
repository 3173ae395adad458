import { describe, expect, it } from 'vitest';
import { runUi, uiPortOf } from '../../src/cli/actions/ui.js';
import { hasCode } from '../../src/core/errors.js';

describe('groundwork ui flags', () => {
  it('takes a port from 0 to 65535', () => {
    expect(uiPortOf(undefined)).toBe(0);
    expect(uiPortOf('8888')).toBe(8888);
  });

  it.each(['-1', '65536', '80; rm -rf /', '0x50', '', '1e3', ' 80'])(
    'refuses --port %j with InvalidFlag',
    (flag) => {
      let err: unknown;
      try {
        uiPortOf(flag);
      } catch (e) {
        err = e;
      }
      expect(hasCode(err, 'InvalidFlag')).toBe(true);
    },
  );

  it.each([
    ['namespace', '../kube-system'],
    ['sync', 'a/b?watch=1'],
    ['namespace', 'x'.repeat(64)],
  ])('refuses --%s %j before reading any kubeconfig', async (flag, value) => {
    const err = await runUi({ [flag]: value, kubeconfig: '/nonexistent/kubeconfig' }).catch(
      (e: unknown) => e,
    );
    expect(hasCode(err, 'InvalidFlag')).toBe(true);
  });
});
