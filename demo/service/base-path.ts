// The path prefix a site may serve the whole service under (`/referral`: `/referral/v1/events`),
// checked before anything starts.

/** A createService option that cannot work. */
export class ServiceOptionError extends Error {
  override readonly name = 'ServiceOptionError'
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(message)
  }
}

const BASE_PATH = /^(\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/

/** `/referral` as given, `''` for none; a trailing slash is dropped. */
export function checkBasePath(value: string | undefined): string {
  if (value === undefined || value === '' || value === '/') return ''
  const path = value.endsWith('/') ? value.slice(0, -1) : value
  if (!BASE_PATH.test(path) || path.split('/').some((part) => part === '..' || part === '.')) {
    throw new ServiceOptionError(
      'basePath',
      `basePath must be a path such as /referral (segments of letters, digits, ".", "_", "~", "-"), not ${JSON.stringify(value).slice(0, 80)}.`,
    )
  }
  return path
}
