// A client for classic WebDriver (W3C WebDriver, HTTP and JSON), as far as the engine suite uses
// it: sessions, windows, navigation and scripts. WebKitGTK's WebKitWebDriver speaks only this.
// Written here because no registry client fits: selenium-webdriver and webdriver (WebdriverIO)
// need a newer Node than the project's 20.19, and puppeteer-core speaks only CDP and BiDi.

/** An error the remote end answered (W3C error codes: `no such window`, `javascript error`...). */
export class WebDriverError extends Error {
  override readonly name = 'WebDriverError'
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`)
  }
}

export interface WebDriverSession {
  readonly id: string
  readonly capabilities: Record<string, unknown>
  command<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T>
}

/** Sends one command to the remote end at `base` (e.g. http://127.0.0.1:4444). */
async function send<T>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    ...(signal ? { signal } : {}),
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
  })
  const answer = (await response.json()) as { value: unknown }
  const value = answer.value as { error?: string; message?: string } | null
  if (!response.ok || (value && typeof value === 'object' && typeof value.error === 'string')) {
    throw new WebDriverError(value?.error ?? `HTTP ${response.status}`, value?.message ?? '')
  }
  return answer.value as T
}

/** Starts a session with these capabilities (`alwaysMatch`), failing after `timeoutMs`. */
export async function newSession(
  base: string,
  capabilities: Record<string, unknown>,
  timeoutMs: number,
): Promise<WebDriverSession> {
  const created = await send<{ sessionId: string; capabilities: Record<string, unknown> }>(
    base,
    'POST',
    '/session',
    { capabilities: { alwaysMatch: capabilities } },
    AbortSignal.timeout(timeoutMs),
  )
  const prefix = `/session/${created.sessionId}`
  return {
    id: created.sessionId,
    capabilities: created.capabilities,
    command: (method, path, body) => send(base, method, `${prefix}${path}`, body),
  }
}
