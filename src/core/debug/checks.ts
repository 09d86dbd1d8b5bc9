// What the debug file checks of the install when it starts (debug mode, or diagnose()): the key's
// mode against the host name, a second copy of the widget on the page, the storage and the shared
// cookie written and read back. Each finding is a decision; the results feed diagnose().
import { AUTO, takesCookie } from '../cookie-domain.ts'
import type { DebugCore } from '../tracker-options.ts'
import type { Decision } from './verdicts.ts'

/**
 * Host names that are not public: a pk_test_ key belongs there, a pk_live_ key does not.
 * Loopback, private networks, and the names reserved for testing and local use (RFC 2606, 6761,
 * 6762).
 */
export function isLocalHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '')
  return (
    name === 'localhost' ||
    name === '::1' ||
    /\.(localhost|test|example|invalid|local|internal|lan|home\.arpa)$/.test(name) ||
    /^(127|10)\.\d+\.\d+\.\d+$/.test(name) ||
    /^192\.168\.\d+\.\d+$/.test(name) ||
    /^172\.(1[6-9]|2\d|3[01])\.\d+\.\d+$/.test(name) ||
    /^f[cd][0-9a-f]{2}:/.test(name) ||
    !name.includes('.')
  )
}

/** Loopback only: where a pk_live_ key is a mistake for sure. */
const isLoopback = (host: string) => /^(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?)$/.test(host)

export interface InstallFindings {
  host: string
  keyMatchesHost: boolean
  localStorage: 'ok' | 'unavailable' | 'held until consent'
  cookie: 'off' | 'ok' | 'refused'
  decisions: Decision[]
}

/** The page's copies of the widget's script tag (any build, any key). */
function tagsOnPage(): number {
  try {
    return [...document.querySelectorAll('script[data-key]')].filter((tag) =>
      /referral-widget[^/]*\.js/.test(tag.getAttribute('src') ?? ''),
    ).length
  } catch {
    return 0
  }
}

/** A second copy of the script tag on the page, as a decision (none while there is one). */
export function duplicateTags(core: Pick<DebugCore, 'now'>): Decision | undefined {
  const count = tagsOnPage()
  if (count > 1) return { code: 'duplicate_tag', at: core.now(), count, where: 'script tags' }
}

export function checkInstall(core: DebugCore): InstallFindings {
  const decisions: Decision[] = []
  const note = (code: string, facts: object = {}) =>
    decisions.push({ ...facts, code, at: core.now() })
  const host = hostName(core.host.href())
  const mode = core.key.mode
  const keyMatchesHost = mode === 'test' ? isLocalHost(host) : !isLoopback(host)
  if (host && !keyMatchesHost) note('key_mode_mismatch', { mode, host })

  const duplicate = duplicateTags(core)
  if (duplicate) decisions.push(duplicate)
  const instances = core.options.instances?.() ?? 1
  if (instances > 1) note('duplicate_tag', { count: instances, where: 'cores with this key' })

  const probe = `${core.namespace}probe`
  core.storage.set(probe, '1')
  const readBack = core.storage.get(probe)
  core.storage.remove(probe)
  const localStorage = !core.consented()
    ? 'held until consent'
    : readBack === '1' && core.storage.durable()
      ? 'ok'
      : 'unavailable'
  if (localStorage === 'unavailable') note('storage_unavailable')

  const domain = core.options.cookieDomain
  let cookie: InstallFindings['cookie'] = 'off'
  // Written only where the widget may write: a probe is a cookie too.
  if (domain !== undefined && core.host.cookie && core.consented()) {
    // `auto`: the browser picks the domain itself, and a host-only cookie is its last resort.
    const on = domain === AUTO ? undefined : domain
    cookie = takesCookie(core.host.cookie, on, core.now().toString(36)) ? 'ok' : 'refused'
    if (cookie === 'refused') note('cookie_domain_refused', { domain, host })
  }
  return { host, keyMatchesHost, localStorage, cookie, decisions }
}

export function hostName(href: string | undefined): string {
  try {
    return new URL(href ?? '').hostname
  } catch {
    return ''
  }
}
