// Debug mode in each engine: the lines a site owner most needs, brought about for real: the
// page's CSP leaving the service out of connect-src (the directive named), a request that never
// gets an answer while the browser is online (a blocker), storage refused, consent pending and
// refused. The page's console is read through a wrapper put in before the tag.
import { expect, it } from 'vitest'
import { useEngine } from './support/harness.ts'
import { apiLoaded, call, enginePage, RECORDER_NONCE } from './support/in-page.ts'

const h = useEngine()

/** Keeps every console line the page prints (info and warn), the same way in every engine. */
const CONSOLE = `<script nonce="${RECORDER_NONCE}">window.__lines = [];
['info', 'warn'].forEach(function (level) {
  var original = console[level];
  console[level] = function () { window.__lines.push(String(arguments[0])); return original.apply(console, arguments) };
});</script>`
const NO_STORAGE = `<script nonce="${RECORDER_NONCE}">Object.defineProperty(window, 'localStorage', {
  get: function () { throw new DOMException('The operation is insecure.', 'SecurityError') }
});</script>`

type Tab = Awaited<ReturnType<typeof h.visit>>
const line = (tab: Tab, code: string) =>
  tab.evaluate(
    (prefix) =>
      (window as unknown as { __lines: string[] }).__lines.find((l) => l.startsWith(prefix)) ??
      null,
    `[referral] ${code}:`,
  )

const page = (options: { head?: string; attributes?: Record<string, string> } = {}) =>
  enginePage(h.service, {
    panel: false,
    head: `${CONSOLE}${options.head ?? ''}`,
    attributes: { debug: '', ...options.attributes },
    scriptAttributes: ` nonce="${RECORDER_NONCE}"`,
  })

it('names the CSP directive that refused the service, and blames no blocker for it', async () => {
  const url = h.host.page('/', {
    csp: `script-src 'nonce-${RECORDER_NONCE}' ${h.service.url}; connect-src 'self'`,
    html: page(),
  })
  const tab = await h.visit(url)
  await expect.poll(() => apiLoaded(tab)).toBe(true)
  await call(tab, 'track', 'signup', { userId: 'csp-user' })
  await call(tab, 'flush')
  await expect.poll(() => line(tab, 'blocked_by_csp')).toMatch(/\(connect-src\)/)
  // diagnose() asks the service again, and judges every failure with the CSP's word on it.
  const report = (await call(tab, 'diagnose')) as {
    service: { problem: string }
    decisions: Array<{ code: string }>
  }
  expect(report.service.problem).toMatch(/refused by the page's CSP \(connect-src\)/)
  expect(report.decisions.map((decision) => decision.code)).not.toContain('blocked_by_client')
})

it('a request with no answer while the browser is online: most likely a blocker', async () => {
  const tab = await h.visit(h.host.page('/', { html: page() }))
  await expect.poll(() => apiLoaded(tab)).toBe(true)
  h.unreachable = true
  await call(tab, 'track', 'signup', { userId: 'blocked-user' })
  await call(tab, 'flush')
  await expect.poll(() => line(tab, 'blocked_by_client')).toMatch(/while the browser is online/)
  h.unreachable = false
})

it('storage refused', async () => {
  const tab = await h.visit(h.host.page('/', { html: page({ head: NO_STORAGE }) }))
  await expect
    .poll(() => line(tab, 'storage_unavailable'))
    .toMatch(/localStorage cannot be written/)
})

it('consent pending, then refused', async () => {
  const code = await h.linkCode('alice')
  const url = h.host.page('/', { html: page({ attributes: { consent: 'required' } }) })
  const tab = await h.visit(`${url}?ref=${code}`)
  await expect.poll(() => line(tab, 'consent_pending')).toMatch(/Waiting for consent/)
  await call(tab, 'consent', false)
  await expect.poll(() => line(tab, 'consent_refused')).toMatch(/Consent was refused/)
})
