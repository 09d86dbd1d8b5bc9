// The set-up of the tests of the Preact components (src/components*.test.tsx), on top of
// ui-world.ts: the harness's tab options as component props, the requests the service saw, the
// host elements a render made and their parts, and containers rendered into directly.
import { render as preactRender } from 'preact'
import { beforeEach } from 'vitest'
import type { ReferralWidgetProps } from '../../src/components.tsx'
import type { StorageLike } from '../../src/queue/storage.ts'
import { componentProps } from './component-props.ts'
import { teardown, useUiWorld, world } from './ui-world.ts'

interface Traffic {
  campaigns: number
  links: number
  events: number
}

let storage: StorageLike

/** Registers the set-up for the file's tests: ui-world's, and a storage for each test's widgets. */
export function useComponentWorld() {
  useUiWorld()
  beforeEach(() => {
    storage = world.createMemoryStorage()
  })
}

/** The options of the harness's tabs, as component props. */
export function props(
  overrides: Partial<ReferralWidgetProps> & { href?: string } = {},
): ReferralWidgetProps {
  const { href, ...rest } = overrides
  return { ...componentProps(world.fetch, storage, href), ...rest }
}

export function traffic(): Traffic {
  const count = (prefix: string) =>
    world.sent.filter((request) => request.path.startsWith(prefix)).length
  return {
    campaigns: count('/v1/campaigns'),
    links: count('/v1/links'),
    events: count('/v1/events'),
  }
}

export const hostsOf = (root: ParentNode, marker = 'data-referral-widget') =>
  Array.from(root.querySelectorAll<HTMLElement>(`[${marker}]`))

export function hostOf(root: ParentNode, marker = 'data-referral-widget'): HTMLElement {
  const [host] = hostsOf(root, marker)
  if (!host) throw new Error(`no [${marker}] element`)
  return host
}

export const part = (host: Element, name: string) =>
  host.shadowRoot?.querySelector<HTMLElement>(`[data-part="${name}"]`) ?? null

export const stateOf = (host: Element) => part(host, 'root')?.getAttribute('data-state')

/** An element at the end of the page to render into; what is rendered there goes after the test. */
export function container(): HTMLElement {
  const element = document.createElement('div')
  document.body.append(element)
  teardown.push(() => preactRender(null, element))
  return element
}
