// The set-up of the tests of the outbound hand-off (src/core/outbound*.test.ts): an attribution
// held since an hour before a fixed instant on fake time, its ref_handoff value, a page on
// www.shop.test whose outbound decoration is stopped after each test, and links to click in it.
import { afterEach, beforeEach, vi } from 'vitest'
import { encodeHandoff, HANDOFF_PARAM } from '../../src/api/handoff.ts'
import { browserHost } from '../../src/core/host.ts'
import { type OutboundOptions, outboundLinks } from '../../src/core/outbound.ts'
import type { Attribution } from '../../src/core/stores.ts'
import { globalTimers } from '../../src/shared/timers.ts'

export const NOW = Date.UTC(2026, 2, 1, 12)
const CAPTURED = NOW - 60 * 60 * 1000
export const held: Attribution = {
  code: 'AbC123xy',
  visitorId: 'v_Q2r8kLm0Zt5XwY7pHn3b',
  capturedAt: new Date(CAPTURED).toISOString(),
}
export const HANDOFF = encodeHandoff({ ...held, capturedAt: CAPTURED, handoffAt: NOW }) ?? ''
export const PAGE = 'https://www.shop.test/landing'

const started: Array<{ stop(): void }> = []

/** Starts the outbound decoration for this page, stopped after the test. */
export function links(overrides: Partial<OutboundOptions> = {}) {
  const outbound = outboundLinks({
    hosts: ['app.other.test', '*.example.org'],
    held: () => held,
    now: () => Date.now(),
    host: { ...browserHost, href: () => PAGE },
    timers: globalTimers,
    ...overrides,
  })
  started.push(outbound)
  return outbound
}

/** Registers the set-up for the file's tests. */
export function useOutboundPage() {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW })
  })
  afterEach(() => {
    for (const outbound of started.splice(0)) outbound.stop()
    vi.useRealTimers()
    vi.unstubAllGlobals()
    document.body.replaceChildren()
  })
}

/** A link in the page, or in `parent`. */
export function link(href: string, parent: ParentNode = document.body) {
  const a = document.createElement('a')
  a.setAttribute('href', href)
  a.textContent = 'Go'
  parent.append(a)
  return a
}

/**
 * The href a link has while a click on it (or on `target` inside it) is dispatched: what the
 * browser navigates to.
 */
export function hrefDuring(a: Element, event: Event, target: Element = a): string | null {
  let seen: string | null = null
  const listener = () => {
    seen = a.getAttribute('href')
  }
  a.addEventListener(event.type, listener)
  target.dispatchEvent(event)
  a.removeEventListener(event.type, listener)
  return seen
}

export const click = () =>
  new MouseEvent('click', { bubbles: true, cancelable: true, composed: true })
export const auxclick = (button: number) =>
  new MouseEvent('auxclick', { bubbles: true, cancelable: true, composed: true, button })
export const decorated = (url: string) =>
  `${url}${url.includes('?') ? '&' : '?'}${HANDOFF_PARAM}=${HANDOFF}`
