// @vitest-environment happy-dom
// The outbound side of the hand-off in a hostile page: nothing thrown into a page that broke the
// DOM's prototypes, replaced URL or hands odd values to decorate().
import { describe, expect, it, vi } from 'vitest'
import {
  click,
  decorated,
  hrefDuring,
  link,
  links,
  PAGE,
  useOutboundPage,
} from '../../test/support/outbound-page.ts'
import type { Host } from './host.ts'

useOutboundPage()

describe('a hostile page', () => {
  /** The listener itself, as the window would call it. */
  function listener() {
    const heard: Record<string, (event: Event) => void> = {}
    const host: Pick<Host, 'href' | 'listen'> = {
      href: () => PAGE,
      listen: (name, fn) => {
        heard[name] = fn
        return () => {}
      },
    }
    links({ host })
    return (event: Event) => heard[event.type]?.(event)
  }

  it.each([
    [
      'composedPath throws',
      () => ({
        type: 'click',
        composedPath: () => {
          throw new Error('no')
        },
      }),
    ],
    ['composedPath is missing', () => ({ type: 'click' })],
    ['a path of odd things', () => ({ type: 'click', composedPath: () => [null, 1, 'a', {}] })],
    [
      'a link whose getAttribute throws',
      () => ({
        type: 'click',
        composedPath: () => [
          {
            localName: 'a',
            href: 'https://app.other.test/',
            hasAttribute: () => true,
            getAttribute: () => {
              throw new Error('no')
            },
          },
        ],
      }),
    ],
    [
      'a link whose setAttribute throws',
      () => ({
        type: 'click',
        composedPath: () => [
          {
            localName: 'a',
            href: 'https://app.other.test/',
            hasAttribute: (name: string) => name === 'href',
            getAttribute: () => 'https://app.other.test/',
            setAttribute: () => {
              throw new Error('no')
            },
          },
        ],
      }),
    ],
  ])('%s: nothing thrown', (_, event) => {
    const follow = listener()
    expect(() => follow(event() as unknown as Event)).not.toThrow()
  })

  it('Element.prototype.closest and Array.prototype.find replaced: links still decorated', () => {
    vi.spyOn(Element.prototype, 'closest').mockImplementation(() => {
      throw new Error('the page replaced closest')
    })
    vi.spyOn(Array.prototype, 'find').mockImplementation(() => {
      throw new Error('the page replaced find')
    })
    const outbound = links()
    const a = link('https://app.other.test/')
    expect(hrefDuring(a, click())).toBe(decorated('https://app.other.test/'))
    outbound.stop()
    vi.restoreAllMocks()
  })

  it('a URL class the page replaced: decorate gives the URL back unchanged, never throws', () => {
    vi.stubGlobal(
      'URL',
      class {
        constructor() {
          throw new TypeError('the page replaced URL')
        }
      },
    )
    expect(links().decorate('https://app.other.test/')).toBe('https://app.other.test/')
    vi.stubGlobal(
      'URL',
      class {
        href = undefined
        protocol = 'https:'
        hostname = 'app.other.test'
      },
    )
    expect(links().decorate('https://app.other.test/')).toBe('https://app.other.test/')
  })

  it('decorate given something that is not a string: it comes back as it was', () => {
    const outbound = links()
    for (const value of [
      undefined,
      null,
      42,
      {
        toString: () => {
          throw new Error('no')
        },
      },
    ])
      expect(outbound.decorate(value as unknown as string)).toBe(value)
  })
})
