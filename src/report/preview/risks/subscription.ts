import { parseVersion } from '../../../cluster-version/version.js';
import { describeRef } from '../../../core/object-id.js';
import { isPlainObject, type K8sObject } from '../../../core/object.js';
import { isKind, type ManifestPair } from '../manifest-pair.js';
import type { RiskNote } from '../risk-note.js';

/**
 * Risk notes for OLM Subscriptions: a new operator (`low`); a channel change (`medium`); approval
 * turned Automatic (`medium`: OLM installs updates unreviewed) or Manual (`low`); the pin
 * (`startingCSV`) set, moved forward or removed (`medium`), or moved back (`high`: OLM never
 * downgrades, so the pin is never reached); a different catalog source (`medium`). A removed
 * Subscription is left to the prune notes.
 */
export function subscriptionRisks(pairs: readonly ManifestPair[]): RiskNote[] {
  const notes: RiskNote[] = [];
  for (const pair of pairs) {
    if (!isKind(pair, 'operators.coreos.com', 'Subscription') || !pair.head || pair.action === 'unchanged')
      continue;
    const subject = describeRef(pair.ref);
    const head = read(pair.head.object);
    if (!pair.base) {
      notes.push({
        severity: 'low',
        code: 'SubscriptionAdded',
        subject,
        message: `installs ${head.package} from ${head.source}, channel ${head.channel}, ${head.approval} approval${head.pin ? `, pinned at ${head.pin}` : ''}`,
      });
      continue;
    }
    const base = read(pair.base.object);
    if (base.channel !== head.channel) {
      notes.push({
        severity: 'medium',
        code: 'SubscriptionChannel',
        subject,
        message: `channel ${base.channel} → ${head.channel}: ${head.package} updates along the new channel's graph from the installed CSV; if that CSV is not in the new channel, OLM finds no update`,
      });
    }
    if (base.approval !== head.approval) {
      notes.push(
        head.approval === 'Manual'
          ? {
              severity: 'low',
              code: 'SubscriptionApproval',
              subject,
              message: `approval Automatic → Manual: updates of ${head.package} wait for an approved InstallPlan`,
            }
          : {
              severity: 'medium',
              code: 'SubscriptionApproval',
              subject,
              message: `approval ${base.approval} → ${head.approval}: OLM installs every update of ${head.package} in channel ${head.channel} without review`,
            },
      );
    }
    if (base.pin !== head.pin) notes.push(pinChange(base, head, subject));
    if (base.source !== head.source) {
      notes.push({
        severity: 'medium',
        code: 'SubscriptionSource',
        subject,
        message: `catalog ${base.source} → ${head.source}: updates come from the new catalog, which must carry the installed CSV's update graph`,
      });
    }
  }
  return notes;
}

interface Sub {
  package: string;
  channel: string;
  approval: string;
  pin: string | undefined;
  source: string;
}

function read(obj: K8sObject): Sub {
  const s = isPlainObject(obj.spec) ? obj.spec : {};
  const str = (v: unknown, fallback: string): string => (typeof v === 'string' ? v : fallback);
  return {
    package: str(s.name, obj.metadata.name),
    channel: str(s.channel, '(default channel)'),
    // OLM treats anything but the exact string Manual as Automatic.
    approval: s.installPlanApproval === 'Manual' ? 'Manual' : 'Automatic',
    pin: typeof s.startingCSV === 'string' ? s.startingCSV : undefined,
    source: `${str(s.sourceNamespace, '?')}/${str(s.source, '?')}`,
  };
}

function pinChange(base: Sub, head: Sub, subject: string): RiskNote {
  if (!head.pin) {
    return {
      severity: 'medium',
      code: 'SubscriptionPin',
      subject,
      message: `pin ${base.pin} removed: ${head.package} follows channel ${head.channel} (${head.approval} approval)`,
    };
  }
  if (!base.pin) {
    return {
      severity: 'medium',
      code: 'SubscriptionPin',
      subject,
      message: `pinned at ${head.pin}: Groundwork approves only the InstallPlans on the path to it`,
    };
  }
  const from = csvVersion(base.pin);
  const to = csvVersion(head.pin);
  if (from && to && from.compare(to) > 0) {
    return {
      severity: 'high',
      code: 'SubscriptionPin',
      subject,
      message: `pin ${base.pin} → ${head.pin} moves back: OLM never downgrades, so an operator already at ${base.pin} stays there and never reaches the pin`,
    };
  }
  return {
    severity: 'medium',
    code: 'SubscriptionPin',
    subject,
    message: `pin ${base.pin} → ${head.pin}: Groundwork approves the InstallPlans from ${base.pin} up to ${head.pin}, and ${head.package} restarts on each`,
  };
}

/** `0.21.0` from `kepler-operator.v0.21.0` (the conventional `<package>.v<semver>` CSV name). */
function csvVersion(csv: string): ReturnType<typeof parseVersion> {
  const at = csv.search(/\.v?\d+\.\d+\.\d+/);
  return at < 0 ? undefined : parseVersion(csv.slice(at + 1).replace(/^v/, ''));
}
