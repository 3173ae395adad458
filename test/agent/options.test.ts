import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { AGENT_FLAGS } from '../../src/agent/agent-flags.js';
import { BOOTSTRAP_FLAGS, agentArgs, type AgentFlagText } from '../../src/agent/options.js';
import { AGENT_DEFAULTS, agentOptionsOf, readAgentFlags } from '../../src/agent/options-schema.js';
import { agentFlagOptions } from '../../src/cli/agent-flag-options.js';
import { checkTrustedSyncName } from '../../src/agent/trusted-sync-name.js';
import { GroundworkError } from '../../src/core/errors.js';

/** What commander hands the action for `args` of `groundwork agent` (or bootstrap's agent flags). */
function parsed(args: readonly string[], opts: { bootstrap?: boolean } = {}): AgentFlagText {
  const command = agentFlagOptions(new Command('agent').exitOverride(), opts).action(() => undefined);
  command.parse(['node', 'agent', ...args]);
  return command.opts();
}

const REQUIRED = ['--repo', 'https://git.example.com/p.git', '--overlay', 'prod'];

function refusal(text: AgentFlagText): GroundworkError {
  try {
    agentOptionsOf(text, {});
  } catch (err) {
    if (err instanceof GroundworkError) return err;
    throw err;
  }
  throw new Error('accepted');
}

describe('the agent options, declared once (AGENT_FLAGS)', () => {
  it('reads the command line into options: defaults from the table, durations in ms, folded flags', () => {
    const o = agentOptionsOf(parsed(REQUIRED), {});
    expect(o).toMatchObject({
      repository: { url: 'https://git.example.com/p.git', ref: { branch: 'main' } },
      overlay: 'prod',
      mode: 'self-heal',
      intervalMs: 60_000,
      resyncMs: 600_000,
      synthTimeoutMs: 120_000,
      npmTimeoutMs: 300_000,
      namespace: 'groundwork-system',
      prune: true,
      maxPruneShare: 0.3,
      logLevel: 'info',
      http: { host: '127.0.0.1', port: 8080 },
      npmRegistry: 'https://registry.npmjs.org/',
    });
    expect(o.leaderElection).toBeUndefined();
    expect(o.commitStatus).toBeUndefined();
    const more = agentOptionsOf(
      parsed([
        ...REQUIRED,
        '--commit',
        'abc123',
        '--branch',
        'env/prod',
        '--leader-elect',
        '--lease-duration',
        '30s',
        '--http-port',
        '0',
        '--no-prune',
        '--dashboard',
        '--commit-status-secret',
        'forge-token',
        '--decryption-secret',
        'sops-age',
      ]),
      { KUBERNETES_SERVICE_HOST: '10.96.0.1', GROUNDWORK_WEBHOOK_SECRET: 'hook' },
    );
    expect(more).toMatchObject({
      repository: { ref: { commit: 'abc123', branch: 'env/prod' } },
      leaderElection: { leaseDurationMs: 30_000, renewDeadlineMs: 19_800, retryPeriodMs: 4_000 },
      prune: false,
      dashboard: true,
      commitStatus: { secret: 'forge-token' },
      decryptionSecret: 'sops-age',
      webhookSecret: 'hook',
    });
    expect(more.http).toBeUndefined();
  });

  it('reads --hub-releases (auto by default) and refuses it without --hub', () => {
    expect(agentOptionsOf(parsed(REQUIRED), {}).hubReleases).toBe('auto');
    const hub = [...REQUIRED, '--hub', 'secret/hub-bootstrap'];
    expect(agentOptionsOf(parsed([...hub, '--hub-releases', 'required']), {}).hubReleases).toBe('required');
    expect(refusal(parsed([...hub, '--hub-releases', 'sometimes']))).toMatchObject({
      subject: '--hub-releases',
    });
    expect(refusal(parsed([...REQUIRED, '--hub-releases', 'off']))).toMatchObject({
      code: 'InvalidFlag',
      subject: '--hub-releases',
    });
  });

  it('refuses a flag that does not read, naming the flag', () => {
    const base = parsed(REQUIRED);
    expect(refusal({ ...base, mode: 'heal' })).toMatchObject({ code: 'InvalidFlag', subject: '--mode' });
    expect(refusal({ ...base, interval: 'soon' })).toMatchObject({
      code: 'InvalidFlag',
      subject: '--interval',
    });
    expect(refusal({ ...base, maxPruneShare: '2' })).toMatchObject({ subject: '--max-prune-share' });
    expect(refusal({ ...base, httpPort: '99999' })).toMatchObject({ subject: '--http-port' });
    expect(refusal({ ...base, httpBind: 'everywhere' })).toMatchObject({ subject: '--http-bind' });
    expect(refusal({ ...base, commitStatusForge: 'github' })).toMatchObject({
      subject: '--commit-status-forge',
    });
    // The value is not echoed: a token pasted into the wrong flag stays out of the error.
    for (const flag of ['interval', 'mode', 'maxPruneShare', 'httpPort'] as const)
      expect(String(refusal({ ...base, [flag]: 'ghp_secretvalue' }))).not.toContain('ghp_secretvalue');
  });

  it("writes the Deployment's arguments that commander reads back to the same values", () => {
    const text: AgentFlagText = {
      repo: 'https://git.example.com/p.git',
      tag: 'v1.2.0',
      path: 'platform',
      overlay: 'prod',
      mode: 'detect-only',
      interval: '60s',
      namespace: 'gw',
      syncName: 'shop-prod',
      leaderElect: true,
      httpBind: '::',
      commitStatusSecret: 'forge-token',
      dashboardUrl: 'https://dash.example.com/',
      dashboard: true,
      verifyCommits: 'configmap/keys',
      hub: 'secret/hub-bootstrap',
      hubReleases: 'required',
      prune: false,
    };
    const args = agentArgs(text);
    expect(args.slice(0, 4)).toEqual(['--repo', 'https://git.example.com/p.git', '--tag', 'v1.2.0']);
    expect(args).toContain('--no-prune');
    const back = parsed(args);
    for (const [name, value] of Object.entries(text))
      expect(back[name as keyof AgentFlagText]).toEqual(value);
  });

  it('declares bootstrap’s agent flags with bootstrap’s help lines and defaults', () => {
    const command = agentFlagOptions(new Command('bootstrap'), { bootstrap: true });
    const longs = command.options.map((o) => o.long);
    expect(longs).toEqual(BOOTSTRAP_FLAGS.map((n) => AGENT_FLAGS[n].flag.split(' ')[0]));
    expect(longs).toEqual(expect.arrayContaining(['--dashboard', '--verify-commits', '--cluster-name']));
    expect(longs).not.toContain('--credentials-secret');
    const bind = command.options.find((o) => o.long === '--http-bind')!;
    expect(bind.defaultValue).toBe('0.0.0.0');
    expect(bind.description).toContain('IPv6-only');
    expect(parsed(REQUIRED, { bootstrap: true })).toMatchObject({ httpBind: '0.0.0.0', interval: '1m' });
  });

  it('has a default for what a caller of startAgent may leave out, read as a flag left out is', () => {
    expect(AGENT_DEFAULTS).toMatchObject({
      mode: 'self-heal',
      interval: 60_000,
      resyncInterval: 600_000,
      namespace: 'groundwork-system',
      prune: true,
    });
    // Only the declared flags: a value the table does not know is refused.
    expect(() => readAgentFlags({ ...parsed(REQUIRED), ...{ surprise: 'x' } } as AgentFlagText)).toThrow();
  });
});

describe('--renderer (the renderer pod, issue 31)', () => {
  it("reads the renderer Service's URL into the options, and refuses one that names metadata, a password or another scheme", () => {
    const url = 'http://groundwork-renderer.groundwork-system.svc:8443';
    expect(agentOptionsOf(parsed([...REQUIRED, '--renderer', url]), {}).renderer).toBe(url);
    for (const bad of [
      'http://169.254.169.254/',
      'http://[::ffff:169.254.169.254]/',
      'http://u:p@r.svc/',
      'file:///x',
    ])
      expect(refusal(parsed([...REQUIRED, '--renderer', bad])).message).toMatch(/^--renderer: the URL /);
  });
});

describe('--verify-commits and --trusted-keys need --sync-name (issue 32, item 4)', () => {
  it('refuses either without --sync-name, naming the flag, and reads them with it', () => {
    for (const flag of ['--verify-commits', '--trusted-keys']) {
      const err = refusal(parsed([...REQUIRED, flag, 'keys']));
      expect(err.code, flag).toBe('MissingFlag');
      expect(err.subject, flag).toBe('--sync-name');
      expect(err.message, flag).toContain(`${flag} needs --sync-name`);
      const o = agentOptionsOf(parsed([...REQUIRED, flag, 'keys', '--sync-name', 'shop-prod']), {});
      expect(o.syncName, flag).toBe('shop-prod');
    }
    expect(agentOptionsOf(parsed(REQUIRED), {}).syncName).toBeUndefined();
  });

  it('lets a caller of startAgent name the platform instead', () => {
    expect(() => checkTrustedSyncName({ verifyCommits: 'keys', platform: 'shop' })).not.toThrow();
    expect(() => checkTrustedSyncName({ trustedKeys: 'keys' })).toThrow(/--trusted-keys needs --sync-name/);
  });
});
