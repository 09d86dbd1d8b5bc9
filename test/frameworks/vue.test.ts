// @vitest-environment happy-dom
// <referral-widget> in a Vue 3 app, as the README shows it: Vue is told the tag is a custom
// element (compilerOptions.isCustomElement), binds attributes to it reactively, and the element
// follows them.
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { type App, createApp, nextTick, ref } from 'vue'
import '../../src/custom-element.ts'
import type { ReferralWidgetElement } from '../../src/custom-element.ts'
import { resetWarnings } from '../../src/shared/log.ts'
import { settle } from '../support/dom.ts'
import { API, createWorld } from '../support/harness.ts'

let world: ReturnType<typeof createWorld>
let app: App | undefined

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 15, 12) })
  resetWarnings()
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  world = createWorld()
  vi.stubGlobal('fetch', vi.fn(world.fetch))
  localStorage.clear()
})

afterEach(async () => {
  app?.unmount()
  app = undefined
  document.body.replaceChildren()
  await vi.advanceTimersByTimeAsync(100)
  localStorage.clear()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const part = (host: Element, name: string) =>
  host.shadowRoot?.querySelector<HTMLElement>(`[data-part="${name}"]`) ?? null

it('a Vue app renders <referral-widget> and a bound attribute changes it reactively', async () => {
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
  const theme = ref<'light' | 'dark'>('light')
  const userId = ref('alice')
  const root = document.createElement('div')
  document.body.append(root)
  app = createApp({
    setup: () => ({ theme, userId, apiBase: API }),
    template: `<referral-widget public-key="pk_test_acme" :api-base="apiBase" :theme="theme"
      :user-id="userId" :messages="{ copy: 'Copy it' }"></referral-widget>`,
  })
  app.config.compilerOptions.isCustomElement = (tag) => tag === 'referral-widget'
  app.mount(root)
  await settle()

  const widget = root.querySelector('referral-widget') as ReferralWidgetElement
  expect(widget).toBeInstanceOf(customElements.get('referral-widget') as typeof HTMLElement)
  expect(part(widget, 'root')?.getAttribute('data-state')).toBe('ready')
  expect(part(widget, 'root')?.getAttribute('data-theme')).toBe('light')
  expect(part(widget, 'copy')?.textContent).toBe('Copy it')

  theme.value = 'dark'
  userId.value = 'bob'
  await nextTick()
  await settle()
  expect(widget.getAttribute('theme')).toBe('dark')
  expect(part(widget, 'root')?.getAttribute('data-theme')).toBe('dark')
  expect((part(widget, 'link') as HTMLInputElement | null)?.value).toContain(
    `?ref=${await world.makeLink('bob')}`,
  )
  // Vue resolved the tag as a custom element: no "Failed to resolve component" warning.
  expect(vi.mocked(console.warn).mock.calls.flat().join(' ')).not.toMatch(/resolve component/)
  expect(errors).not.toHaveBeenCalled()
})
