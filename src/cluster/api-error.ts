import { isKubernetesReason } from '../core/error-codes.js';
import { GroundworkError } from '../core/errors.js';

/** A `metav1.Status` failure body as the apiserver returns it. */
export interface StatusBody {
  kind?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: { reason?: string; message?: string; field?: string }[];
  };
}

/**
 * An HTTP error from the apiserver, with the Status `reason` (`NotFound`, `Conflict`,
 * `Invalid`, `AlreadyExists`, `Forbidden`, …) as its stable code; a reason outside
 * `KUBERNETES_REASONS` (an admission webhook's own, or `Http<status>` for an unknown status
 * without one) is kept in `reason` and gives the code `ApiRequestFailed`.
 */
export class ApiError extends GroundworkError {
  readonly status: number;
  readonly reason: string;
  readonly body: StatusBody | undefined;

  constructor(opts: {
    status: number;
    method: string;
    path: string;
    body: StatusBody | undefined;
    text: string;
  }) {
    // Server-side apply reports schema type errors as 500 "failed to create typed patch object"
    // (structured-merge-diff runs before validation); they are invalid input, not a server fault.
    const typedPatch =
      opts.status === 500 && /failed to create typed patch object/.test(opts.body?.message ?? '');
    const reason = typedPatch ? 'Invalid' : opts.body?.reason || httpReason(opts.status);
    super({
      code: isKubernetesReason(reason) ? reason : 'ApiRequestFailed',
      subject: `${opts.method} ${opts.path}`,
      message: `${opts.status} ${reason}: ${opts.body?.message ?? opts.text.slice(0, 500)}`,
    });
    this.status = opts.status;
    this.reason = reason;
    this.body = opts.body;
  }

  /** The server's message without our method/path prefix. */
  get bodyMessage(): string {
    return this.body?.message ?? this.message;
  }

  /** The field-level causes of an Invalid or Conflict response. */
  get causes(): { reason?: string; message?: string; field?: string }[] {
    return this.body?.details?.causes ?? [];
  }
}

function httpReason(status: number): string {
  switch (status) {
    case 400:
      return 'BadRequest';
    case 401:
      return 'Unauthorized';
    case 403:
      return 'Forbidden';
    case 404:
      return 'NotFound';
    case 405:
      return 'MethodNotAllowed';
    case 409:
      return 'Conflict';
    case 410:
      return 'Expired';
    case 415:
      return 'UnsupportedMediaType';
    case 422:
      return 'Invalid';
    case 429:
      return 'TooManyRequests';
    case 500:
      return 'InternalError';
    case 503:
      return 'ServiceUnavailable';
    case 504:
      return 'Timeout';
    default:
      return `Http${status}`;
  }
}

export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}

/** Network-level failures (connection refused/reset, timeouts) that a retry may cure. */
export class ConnectionError extends GroundworkError {
  constructor(method: string, path: string, cause: Error) {
    super({
      code: 'ConnectionFailed',
      subject: `${method} ${path}`,
      message: cause.message,
      fix: 'check that the apiserver is reachable (kubeconfig server URL, network)',
      cause,
    });
  }
}
