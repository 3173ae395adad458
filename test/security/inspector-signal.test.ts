// Issue 31, High 2: platform code called `process._debugProcess(process.ppid)`: SIGUSR1 to the synth
// parent, whose Node opened its inspector on 127.0.0.1:9229; the child connected and ran code in
// the parent. `_debugProcess(-pgid)` and `(-1)` reached whole process groups. Now the guard refuses
// `_debugProcess` for every PID, and the renderer around the platform child leaves no process of
// the trusted side to name (a PID namespace; in `uid` mode another user too), so nothing reaches
// this process: its inspector stays closed and no signal arrives.
import inspector from 'node:inspector';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childSynthError } from '../harness/child-synth.js';
import { configMapPlatform } from '../harness/config-map-platform.js';
import { platformDir } from '../harness/platform-dir.js';
import { inspectorPortOpen } from './renderer-probe.js';

const platform = (top: string) => configMapPlatform(top);

let usr1 = 0;
const onUsr1 = () => {
  usr1++;
};
beforeAll(async () => {
  expect(await inspectorPortOpen(), 'something already listens on 9229').toBe(false);
});
afterAll(() => {
  process.off('SIGUSR1', onUsr1);
});

describe.each([
  ['namespaces', {}],
  ['uid (user namespaces refused, as root)', { userNamespaces: false }],
] as const)('in %s mode', (_mode, isolation) => {
  it.each([
    ['process._debugProcess(process.ppid)', /signal process \d+/],
    ['process._debugProcess(-process.pid)', /signal process -\d+/],
    ['process._debugProcess(-1)', /signal process -1/],
    ['process._debugProcess(process.pid)', /signal process \d+/],
    ['process.kill(process.ppid, "SIGUSR1")', /signal process \d+/],
    ['process.kill(0, "SIGUSR1")', /signal process 0/],
    ['process.kill(-1, "SIGUSR1")', /signal process -1/],
  ])('%s fails synth with NotPermitted; no inspector opens here', async (call, message) => {
    const err = await childSynthError(platformDir(platform(`${call};`)), { isolation });
    expect(err.code).toBe('NotPermitted');
    expect(err.message).toMatch(
      new RegExp(`platform/main\\.ts:2: platform code is not permitted to ${message.source}`),
    );
    expect(inspector.url()).toBeUndefined();
    expect(await inspectorPortOpen()).toBe(false);
  });
});

describe('no signal reaches the trusted side', () => {
  it('a SIGUSR1 handler here counts none after every attempt above and a render that tries again', async () => {
    // With a handler Node does not open the inspector on SIGUSR1, so what arrives can be counted.
    process.on('SIGUSR1', onUsr1);
    for (const isolation of [{}, { userNamespaces: false }])
      await childSynthError(platformDir(platform('process._debugProcess(process.ppid);')), { isolation });
    expect(usr1).toBe(0);
  });
});
