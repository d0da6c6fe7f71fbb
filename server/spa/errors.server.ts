/**
 * What can go wrong talking to the spa back end, as our own types. Routes decide what to show from
 * `kind`; `code` keeps the vendor's number (Zenoti's codes are not HTTP statuses).
 */
export type SpaErrorKind =
  | "config" // the client was set up wrong (missing key, unknown auth strategy)
  | "unauthorized" // 401/403, bad key or token
  | "rejected" // the back end understood and refused (4xx, or HTTP 200 with an error body)
  | "rate-limited" // 429
  | "server" // 5xx
  | "timeout"
  | "network"
  | "invalid-response"; // the body did not have the shape we rely on

export class SpaError extends Error {
  readonly kind: SpaErrorKind;
  /** HTTP status of the answer (or 400 for a config error, 504 for a timeout, 502 for network). */
  readonly status: number;
  /** The back end's own error code, when it gave one. */
  readonly code: number | string | null;
  readonly path: string;
  /** From a Retry-After header, when the back end sent one. */
  retryAfterMs: number | undefined;

  constructor(options: {
    kind: SpaErrorKind;
    status: number;
    code?: number | string | null;
    message: string;
    path?: string;
    cause?: unknown;
  }) {
    super(options.message, { cause: options.cause });
    this.name = "SpaError";
    this.kind = options.kind;
    this.status = options.status;
    this.code = options.code ?? null;
    this.path = options.path ?? "";
  }

  /** Worth one more try for an idempotent read. */
  get isTransient(): boolean {
    return (
      this.kind === "timeout" ||
      this.kind === "network" ||
      this.kind === "rate-limited" ||
      (this.kind === "server" && this.status !== 501)
    );
  }
}

export function isSpaError(error: unknown): error is SpaError {
  return error instanceof SpaError;
}
