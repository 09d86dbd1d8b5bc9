/** A failed call to the referral service, with what the service said about it. */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  /** HTTP status; 0 when no answer arrived (network error, offline, blocked). */
  readonly status: number
  readonly type: string
  readonly code: string
  readonly param: string | undefined
  /** From a 429's Retry-After, in milliseconds; 0 otherwise. */
  readonly retryAfterMs: number
  /** Whether trying again later can succeed: network errors, 408, 429 and 5xx. */
  readonly retryable: boolean

  constructor(fields: {
    status: number
    type: string
    code: string
    message: string
    param?: string | undefined
    retryAfterMs?: number
    /** Overrides the status's verdict, e.g. a 200 whose body could not be read. */
    retryable?: boolean
    cause?: unknown
  }) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause })
    this.status = fields.status
    this.type = fields.type
    this.code = fields.code
    this.param = fields.param
    this.retryAfterMs = fields.retryAfterMs ?? 0
    this.retryable = fields.retryable ?? isRetryableStatus(fields.status)
  }
}

export const isRetryableStatus = (status: number) =>
  status === 0 || status === 408 || status === 429 || status >= 500

/** A problem with the options or attributes the widget was started with. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
  constructor(
    /** The option (or attribute) at fault. */
    readonly option: string,
    message: string,
  ) {
    super(message)
  }
}

/** Anything thrown, as an Error: what the widget reports and emits. */
export const errorOf = (thrown: unknown): Error =>
  thrown instanceof Error ? thrown : new Error(String(thrown))

/** Anything thrown, as the sentence to show on the console. */
export const messageOf = (thrown: unknown): string => errorOf(thrown).message
