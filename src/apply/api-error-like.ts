/**
 * The shape of a server error the apply engine inspects. src/cluster's ApiError has it; pure
 * tests build plain objects. Keeps src/apply free of adapter imports for decisions.
 */
export interface ApiErrorLike {
  status: number;
  reason: string;
  causes: { reason?: string; message?: string; field?: string }[];
  bodyMessage: string;
}

export function isApiErrorLike(err: unknown): err is ApiErrorLike {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as ApiErrorLike).status === 'number' &&
    typeof (err as ApiErrorLike).reason === 'string'
  );
}
