import { isNotFound } from '../../cluster/api-error.js';
import { KubeClient } from '../../cluster/client.js';
import { platformSyncSchema } from '../../cluster/sync-status-store.js';
import {
  RECONCILE_ANNOTATION,
  REASON_LIMIT,
  SUSPEND_ANNOTATION,
  SUSPENDED_AT_ANNOTATION,
  SUSPENDED_BY_ANNOTATION,
  parseSyncControl,
} from '../../agent/sync-control.js';
import { GroundworkError, errorMessage } from '../../core/errors.js';
import { SyncStatus } from '../../report/sync-status.js';
import { rfc3339 } from '../../report/sync-status-schema.js';
import { suspendedText } from '../../report/sync-status-render.js';
import { z } from 'zod';
import { outputOf } from '../output.js';
import { render } from '../render.js';
import { connectionOf } from '../cluster-flags.js';
import { ExitCode } from '../exit-code.js';
import { parseDuration } from '../../core/duration.js';
import { checkSyncNames } from '../sync-names.js';
import type { SetExitCode } from '../commands/command-module.js';

export interface SyncFlags {
  sync?: string;
  namespace: string;
  kubeconfig?: string;
  context?: string;
  reason?: string;
  output?: string;
  wait?: boolean;
  timeout?: string;
}

const BASE = '/apis/groundwork.io/v1alpha1/namespaces';
const listSchema = z.object({ items: z.array(z.object({ metadata: z.object({ name: z.string() }) })) });

async function connect(flags: SyncFlags): Promise<KubeClient> {
  return KubeClient.load(connectionOf(flags));
}

/** The PlatformSync named by `--sync`, else the only one in the namespace. */
async function syncName(client: KubeClient, flags: SyncFlags): Promise<string> {
  checkSyncNames(flags);
  if (flags.sync) return flags.sync;
  const list = await client.request('GET', `${BASE}/${flags.namespace}/platformsyncs`, {
    schema: listSchema,
  });
  const names = list.items.map((i) => i.metadata.name);
  if (names.length === 1) return names[0]!;
  throw new GroundworkError({
    code: 'PlatformSyncNotFound',
    subject: `namespace ${flags.namespace}`,
    message:
      names.length === 0
        ? 'no PlatformSync in this namespace'
        : `${names.length} PlatformSyncs here (${names.join(', ')}): say which`,
    fix: names.length === 0 ? "pass the agent's --namespace" : 'pass --sync NAME',
  });
}

async function readSync(client: KubeClient, flags: SyncFlags, name: string) {
  try {
    return await client.request(
      'GET',
      `${BASE}/${flags.namespace}/platformsyncs/${encodeURIComponent(name)}`,
      {
        schema: platformSyncSchema,
      },
    );
  } catch (err) {
    if (isNotFound(err))
      throw new GroundworkError({
        code: 'PlatformSyncNotFound',
        subject: `PlatformSync/${flags.namespace}/${name}`,
        message: 'not found',
        fix: "check --sync and --namespace (the agent's namespace)",
      });
    throw err;
  }
}

/** A merge patch of the annotations, as `kubectl annotate` writes them (null removes one). */
async function annotate(
  client: KubeClient,
  flags: SyncFlags,
  name: string,
  values: Record<string, string | null>,
) {
  await readSync(client, flags, name);
  await client.request('PATCH', `${BASE}/${flags.namespace}/platformsyncs/${encodeURIComponent(name)}`, {
    body: { metadata: { annotations: values } },
    contentType: 'application/merge-patch+json',
    query: { fieldManager: 'groundwork-sync' },
  });
}

/** What a SelfSubjectReview answers: the user the request was authenticated as. */
const selfSubjectReviewSchema = z.object({
  status: z.object({ userInfo: z.object({ username: z.string().optional() }).optional() }).optional(),
});

/** The user the apiserver authenticated (SelfSubjectReview); undefined when the server does not say. */
async function whoAmI(client: KubeClient): Promise<string | undefined> {
  try {
    const review = await client.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      schema: selfSubjectReviewSchema,
    });
    const user = review.status?.userInfo?.username;
    return user ? user : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `sync suspend`: the suspend annotations (reason, the authenticated user, now), then (unless
 * `--no-wait`) waits until the agent's status carries this very suspend (`status.suspended.at`):
 * from then on it applies nothing and heals nothing. Throws `SuspendNotAnswered` after
 * `--timeout`; the annotations stay either way.
 */
export async function runSyncSuspend(flags: SyncFlags): Promise<void> {
  const client = await connect(flags);
  const name = await syncName(client, flags);
  const by = await whoAmI(client);
  const reason = (flags.reason ?? '').slice(0, REASON_LIMIT);
  const at = rfc3339(new Date());
  await annotate(client, flags, name, {
    [SUSPEND_ANNOTATION]: reason,
    [SUSPENDED_BY_ANNOTATION]: by ?? null,
    [SUSPENDED_AT_ANNOTATION]: at,
  });
  const control = parseSyncControl({
    [SUSPEND_ANNOTATION]: reason,
    ...(by ? { [SUSPENDED_BY_ANNOTATION]: by } : {}),
  });
  const what = `PlatformSync ${flags.namespace}/${name} ${suspendedText(control.suspended!)}`;
  if (flags.wait === false) {
    process.stdout.write(
      `${what}\nRequested: the agent holds once it reads it (within seconds; groundwork sync status says when). Undo: groundwork sync resume\n`,
    );
    return;
  }
  const deadline = Date.now() + parseDuration(flags.timeout ?? '1m');
  while (parseStatus(await readSync(client, flags, name), flags, name).value.suspended?.at !== at) {
    if (Date.now() > deadline)
      throw new GroundworkError({
        code: 'SuspendNotAnswered',
        subject: `PlatformSync/${flags.namespace}/${name}`,
        message: `the suspend is set, but no agent confirmed it within ${flags.timeout ?? '1m'}: it may still apply and heal`,
        fix: 'check that the agent runs and leads (its logs); groundwork sync status says when it holds; undo with groundwork sync resume',
      });
    await new Promise((r) => setTimeout(r, 500));
  }
  process.stdout.write(
    `${what}\nHeld: the agent confirmed it applies and heals nothing; drift is still reported. Undo: groundwork sync resume\n`,
  );
}

/** `sync resume`: removes the suspend annotations. */
export async function runSyncResume(flags: SyncFlags): Promise<void> {
  const client = await connect(flags);
  const name = await syncName(client, flags);
  await annotate(client, flags, name, {
    [SUSPEND_ANNOTATION]: null,
    [SUSPENDED_BY_ANNOTATION]: null,
    [SUSPENDED_AT_ANNOTATION]: null,
  });
  process.stdout.write(
    `PlatformSync ${flags.namespace}/${name} resumed: the next cycle applies and corrects drift\n`,
  );
}

/** `sync reconcile`: a new request token, then (unless `--no-wait`) the cycle that answers it. */
export async function runSyncReconcile(flags: SyncFlags, setExitCode: SetExitCode): Promise<void> {
  const client = await connect(flags);
  const name = await syncName(client, flags);
  const timeoutMs = parseDuration(flags.timeout ?? '2m');
  const token = new Date().toISOString();
  await annotate(client, flags, name, { [RECONCILE_ANNOTATION]: token });
  if (flags.wait === false) {
    process.stdout.write(`PlatformSync ${flags.namespace}/${name}: reconcile requested (${token})\n`);
    setExitCode(ExitCode.Ok);
    return;
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = parseStatus(await readSync(client, flags, name), flags, name);
    if (status.value.lastHandledReconcileAt === token) {
      process.stdout.write(
        render({ name, namespace: flags.namespace, status: status.toJSON() }, outputOf(flags), {
          text: () => [`PlatformSync ${flags.namespace}/${name}: cycle done`, status.toString()].join('\n'),
        }),
      );
      setExitCode(status.ready ? ExitCode.Ok : ExitCode.Changes);
      return;
    }
    if (Date.now() > deadline)
      throw new GroundworkError({
        code: 'ReconcileNotAnswered',
        subject: `PlatformSync/${flags.namespace}/${name}`,
        message: `no cycle answered the request within ${flags.timeout ?? '2m'}`,
        fix: 'check that the agent runs and leads (its logs); or pass --no-wait',
      });
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** `sync history`: `status.history`, newest first. */
export async function runSyncHistory(flags: SyncFlags, setExitCode: SetExitCode): Promise<void> {
  const client = await connect(flags);
  const name = await syncName(client, flags);
  const status = parseStatus(await readSync(client, flags, name), flags, name);
  const history = status.value.history ?? [];
  const text = () =>
    history.length === 0
      ? `PlatformSync ${flags.namespace}/${name}: no revision applied yet`
      : history
          .map((h) => {
            const counts = Object.entries(h.counts ?? {})
              .map(([k, n]) => `${k} ${n}`)
              .join(', ');
            const timings = Object.entries(h.timings ?? {})
              .map(([k, ms]) => `${k} ${ms} ms`)
              .join(', ');
            return [
              h.at,
              h.outcome === 'applied' ? 'applied' : `failed (${h.reason ?? 'unknown'})`,
              h.revision,
              h.trigger && `trigger: ${h.trigger}`,
              counts && `objects: ${counts}`,
              timings && `timings: ${timings}`,
            ]
              .filter(Boolean)
              .join('  ');
          })
          .join('\n');
  process.stdout.write(render({ name, namespace: flags.namespace, history }, outputOf(flags), { text }));
  setExitCode(ExitCode.Ok);
}

function parseStatus(obj: { status?: unknown }, flags: SyncFlags, name: string): SyncStatus {
  try {
    return SyncStatus.parse(obj.status);
  } catch (err) {
    throw new GroundworkError({
      code: 'InvalidSyncStatus',
      subject: `PlatformSync/${flags.namespace}/${name}`,
      message: errorMessage(err),
      fix: 'let the agent rewrite it',
    });
  }
}

/** `sync status`: the status as the agent wrote it, plus a suspend the agent has not picked up yet. */
export async function runSyncStatus(flags: SyncFlags, setExitCode: SetExitCode): Promise<void> {
  const client = await connect(flags);
  const name = await syncName(client, flags);
  const obj = await readSync(client, flags, name);
  const status = parseStatus(obj, flags, name);
  const asked = parseSyncControl(obj.metadata.annotations).suspended;
  const seen = status.value.suspended;
  const note =
    asked && !seen
      ? `${suspendedText(asked)} (requested; the agent has not picked it up yet)`
      : !asked && seen
        ? 'resume requested; the agent has not picked it up yet'
        : undefined;
  const format = outputOf(flags);
  process.stdout.write(
    render(
      {
        name,
        namespace: flags.namespace,
        ...(asked ? { suspendRequested: asked } : {}),
        status: status.toJSON(),
      },
      format,
      {
        text: () =>
          [`PlatformSync ${flags.namespace}/${name}`, status.toString(), ...(note ? [note] : [])].join('\n'),
        markdown: () => [status.toMarkdown(name), ...(note ? ['', note] : [])].join('\n'),
      },
    ),
  );
  setExitCode(ExitCode.Ok);
}
