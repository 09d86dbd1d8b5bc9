// @vitest-environment happy-dom
// The UI files' mounting (mount-all.ts) on a page that changes without a reload: a panel or banner
// element that comes later is mounted, one that leaves is let go with nothing of it left behind
// (the stores it listened to have no more listeners than before), a panel present before a body
// swap comes back on the new body, and once the core is destroyed nothing more is mounted.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { settle } from '../../test/support/dom.ts'
import { open, teardown, useUiWorld } from '../../test/support/ui-world.ts'
import { mountBanner, mountPanel } from '../ui/mount.ts'
import { mountAllOf } from './mount-all.ts'

useUiWorld()

const mountAll = mountAllOf([
  ['[data-referral-widget]', mountPanel],
  ['[data-referral-banner]', mountBanner],
])
const OPTIONS = { script: { getAttribute: () => null }, integrity: false }

afterEach(() => {
  vi.restoreAllMocks()
  for (const undo of teardown.splice(0).reverse()) undo()
  document.body.replaceChildren()
})

/** An element for the widget, put into the page the way a page swap puts one. */
function element(attribute: string) {
  const host = document.createElement('div')
  host.setAttribute(attribute, '')
  document.body.append(host)
  return host
}

const rootState = (host: Element) =>
  host.shadowRoot?.querySelector('[data-part="root"]')?.getAttribute('data-state') ?? null

/** How many listeners the stores a panel reads have now. */
const listeners = (core: ReturnType<typeof open>) =>
  [core.$campaign, core.$link, core.$summary, core.$attribution, core.$connection].map(
    (store) => (store as unknown as { lc: number }).lc,
  )

describe('mountAll on a page that changes', () => {
  it('mounts a panel and a banner that come later, and lets go of one that leaves', async () => {
    const core = open({ userId: 'alice' })
    const before = listeners(core)
    teardown.push(mountAll(core, OPTIONS))
    await settle()
    const panel = element('data-referral-widget')
    const banner = element('data-referral-banner')
    await settle()
    expect(rootState(panel)).toBe('ready')
    expect(banner.shadowRoot).not.toBeNull()
    expect(listeners(core)).not.toEqual(before)

    panel.remove()
    banner.remove()
    await settle()
    expect(listeners(core)).toEqual(before)
  })

  it('a panel on both bodies comes back on the new one, the old one let go', async () => {
    const core = open({ userId: 'alice' })
    element('data-referral-widget')
    const before = listeners(core)
    teardown.push(mountAll(core, OPTIONS))
    await settle()
    const mounted = listeners(core)

    const next = document.createElement('body')
    next.innerHTML = '<main><h1>Settings</h1><div data-referral-widget></div></main>'
    document.body.replaceWith(next)
    await settle()
    const host = document.querySelector('[data-referral-widget]') as Element
    expect(rootState(host)).toBe('ready')
    expect(listeners(core)).toEqual(mounted) // one panel's worth, not two
    expect(before).not.toEqual(mounted)
  })

  it('mounts nothing more once the core is destroyed, and leaves no listener', async () => {
    const core = open({ userId: 'alice' })
    const before = listeners(core)
    teardown.push(mountAll(core, OPTIONS))
    element('data-referral-widget')
    await settle()
    core.destroy()
    const late = element('data-referral-widget')
    await settle()
    expect(late.shadowRoot).toBeNull()
    expect(listeners(core)).toEqual(before)
  })

  it('a page busy with its own elements costs no query of the document; a panel among them is still mounted', async () => {
    const core = open({ userId: 'alice' })
    teardown.push(mountAll(core, OPTIONS))
    const panel = element('data-referral-widget')
    await settle()
    const queries = vi.spyOn(document, 'querySelectorAll')
    const rows = document.createElement('tbody')
    document.body.append(rows)
    for (let frame = 0; frame < 5; frame++) {
      rows.replaceChildren(...Array.from({ length: 100 }, () => document.createElement('tr')))
      await settle()
    }
    expect(queries).not.toHaveBeenCalled()
    expect(rootState(panel)).toBe('ready')

    const late = document.createElement('tr')
    late.innerHTML = '<td><div data-referral-banner></div></td>'
    rows.append(late)
    await settle()
    expect(late.querySelector('[data-referral-banner]')?.shadowRoot).not.toBeNull()
  })
})
