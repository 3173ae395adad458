/**
 * The `reason` values of the apiserver's `metav1.Status` (k8s.io/apimachinery
 * `pkg/apis/meta/v1/types.go`, the values of `StatusReason*`, apart from the empty Unknown). An `ApiError` carries one as its code, or
 * `ApiRequestFailed` when the server sent a reason outside this list.
 */
export const KUBERNETES_REASONS = [
  'AlreadyExists',
  'BadRequest',
  'Conflict',
  'Expired',
  'Forbidden',
  'Gone',
  'InternalError',
  'Invalid',
  'MethodNotAllowed',
  'NotAcceptable',
  'NotFound',
  'RequestEntityTooLarge',
  'ServerTimeout',
  'ServiceUnavailable',
  'StorageReadError',
  'Timeout',
  'TooManyRequests',
  'Unauthorized',
  'UnsupportedMediaType',
] as const;

/** A `metav1.StatusReason` from `KUBERNETES_REASONS`. */
export type KubernetesReason = (typeof KUBERNETES_REASONS)[number];

const REASONS: ReadonlySet<string> = new Set(KUBERNETES_REASONS);

/** Whether an apiserver Status `reason` is one of `KUBERNETES_REASONS`. */
export function isKubernetesReason(value: string): value is KubernetesReason {
  return REASONS.has(value);
}

/**
 * Every `code` a `GroundworkError` can carry: a closed vocabulary, part of the CLI's and the
 * agent's output contract (JSON output, sync status, events, metrics). Each code has a row in
 * `docs/errors.md` with its meaning and fix; a unit test keeps the two lists equal.
 *
 * Adding a code: append it here under its domain, and add its row to `docs/errors.md`.
 * Renaming or removing one breaks users' alerts: don't.
 *
 * These are not the `.code` of Node system errors (`ENOENT`, `ERR_ACCESS_DENIED`) nor of
 * isomorphic-git's errors (`NotFoundError`); those are read where they arise and turned into one
 * of these.
 */
export const ERROR_CODES = [
  // core
  'FileTooLarge',
  'InvalidManifest',
  'InvalidObjectName',
  'NotARegularFile',
  'OutputPathRefused',
  'PathOutsideCheckout',
  'RedactionKeyInvalid',
  'UnsafeToolArgument',
  'UrlNotAllowed',
  // source
  'AmbiguousRevision',
  'AuthFailed',
  'ExportTargetNotEmpty',
  'FetchFailed',
  'FetchTimeout',
  'HostKeyMismatch',
  'HostKeyNotPinned',
  'InvalidCredentials',
  'InvalidWebhookPayload',
  'MissingObject',
  'NotACommit',
  'NotAGitRepository',
  'NotFastForward',
  'PathNotFound',
  'RevisionNotFound',
  'TrustedKeysInvalid',
  'UnsafeTreeEntry',
  'UnsupportedRepoUrl',
  'VerificationFailed',
  // synth
  'BuildFailed',
  'ChartFetchFailed',
  'CompileFailed',
  'DependencyInstallFailed',
  'ImportOutsideCheckout',
  'InvalidConfig',
  'InvalidOverlay',
  'NotPermitted',
  'RenderIsolationUnavailable',
  'RendererUnreachable',
  'SopsFileInvalid',
  'SopsKeyMissing',
  'SopsMacMismatch',
  'SopsNoMatchingKey',
  'SopsValueUnprotected',
  'SopsConfigInvalid',
  'SynthCrashed',
  'SynthOutOfMemory',
  'SynthOutputTooLarge',
  'SymlinkOutsideCheckout',
  'SynthTimeout',
  'UnknownOverlay',
  'Usage',
  'ValidationFailed',
  // plan
  'AgentNamespaceRefused',
  // apply
  'ConflictsRemain',
  'HookFailed',
  'Interrupted',
  'PreflightFailed',
  'PruneFailed',
  'StageFailed',
  'WaitFailed',
  'WaitTimeout',
  // cluster (client, discovery, kubeconfig, inventory)
  'ApiRequestFailed',
  'ClusterObjectInvalid',
  'ClusterResponseInvalid',
  'ConnectionFailed',
  'CrdNotEstablished',
  'DiscoveryUnsupported',
  'GroupUnavailable',
  'InventoryReadFailed',
  'KubeconfigInvalid',
  'KubeconfigNotFound',
  'KubeconfigRefused',
  'UnknownContext',
  'UnknownKind',
  // report
  'InvalidPreview',
  'InvalidSyncStatus',
  // agent
  'InvalidLeaderElection',
  'PlatformSyncNotFound',
  'ReconcileNotAnswered',
  'SuspendNotAnswered',
  // notifications (commit statuses, alerts)
  'InvalidNotificationUrl',
  'NotificationSecretInvalid',
  'UnknownForge',
  // propose: pull requests on a forge
  'ForgeRequestFailed',
  'InvalidProposalGroup',
  // fleet
  'InvalidFleetFile',
  'NotPromoted',
  'UnknownEnvironment',
  // hub
  'HubBootstrapInvalid',
  'HubCredentialsExpired',
  'HubNotInstalled',
  'HubRegistrationFailed',
  'HubRegistrationRefused',
  'ReleasePending',
  'ReleaseRefused',
  'RolloutNotFound',
  'RolloutRefused',
  // olm
  'CatalogInvalid',
  'CatalogUnreadable',
  'DependencyUnresolvable',
  'OlmObjectInvalid',
  'PinUnreachable',
  // cluster-version
  'InvalidChannel',
  'InvalidClusterState',
  'InvalidUpdateGraph',
  // controlplane (the local kube-apiserver and etcd)
  'ClusterNotRunning',
  'ControlPlaneBinariesMissing',
  'ControlPlaneBuildFailed',
  'ControlPlaneStartFailed',
  'ControllerManagerMissing',
  'CrdDirectoryMissing',
  'GoFailed',
  'GoNotFound',
  // tools (helm, kustomize, sops, gitea built from the Go module proxy)
  'ToolBuildFailed',
  'ToolNotUsable',
  // cli
  'InitWouldOverwrite',
  'InvalidGroundworkVersion',
  'AgentImageUnpublished',
  'OlmNotServed',
  'SimulatorsFailed',
  'InvalidFlag',
  'MissingFlag',
  'NoCatalog',
  'NoDefaultChannel',
  'NoPackageServer',
  'UnknownPackage',
  // cli: secret decrypt, edit, keygen
  'EditorFailed',
  'EditConflict',
  'PlaintextInvalid',
  'SecretOutputRefused',
  // simulators
  'CincinnatiResponseInvalid',
  'FbcUnreadable',
  'SyntheticCatalogInvalid',
  'UnknownPool',
  // the apiserver's own Status reasons, carried by ApiError
  ...KUBERNETES_REASONS,
] as const;

/** A code from `ERROR_CODES`. */
export type ErrorCode = (typeof ERROR_CODES)[number];

const CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** Whether `value` is one of `ERROR_CODES`: for codes read from outside (the synth child's output). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && CODES.has(value);
}
