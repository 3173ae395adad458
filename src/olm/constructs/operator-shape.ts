import type { IConstruct } from 'constructs';

/** How OLM installs an operator: which namespaces its OperatorGroup targets. */
export type InstallMode = 'OwnNamespace' | 'SingleNamespace' | 'MultiNamespace' | 'AllNamespaces';

/** How the InstallPlans of an operator's Subscription are approved. */
export type Approval = 'Automatic' | 'Manual';

/**
 * What the OperatorGroup finalizer (`operator-groups.ts`) reads of an operator. `PlatformOperator`
 * has it all; the type lives here so that neither module imports the other back.
 */
export interface OperatorShape extends IConstruct {
  readonly packageName: string;
  readonly namespace: string;
  readonly installMode: InstallMode;
  readonly targetNamespaces: readonly string[];
  readonly approval: Approval;
  readonly createNamespace: boolean;
}
