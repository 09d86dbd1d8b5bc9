import type { ContentfulStatusCode } from 'hono/utils/http-status'

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'api_error'

/** An answer other than 2xx, in the contract's error body. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError'
  constructor(
    readonly status: ContentfulStatusCode,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }

  toBody() {
    return {
      error: {
        type: this.type,
        code: this.code,
        message: this.message,
        ...(this.param === undefined ? {} : { param: this.param }),
      },
    }
  }
}

export const invalid = (code: string, message: string, param?: string) =>
  new ServiceError(400, 'invalid_request_error', code, message, param)

export const notFound = (message: string, param?: string) =>
  new ServiceError(404, 'not_found_error', 'resource_missing', message, param)

export const conflict = (code: string, message: string, param?: string) =>
  new ServiceError(409, 'invalid_request_error', code, message, param)

export const secretKeyRequired = (message: string, param?: string) =>
  new ServiceError(403, 'permission_error', 'secret_key_required', message, param)
