// @vitest-environment happy-dom
// The script tag's one Trusted Types policy: made once, on first use, and only for the widget's
// own files beside its own script; a plain string where the browser has no Trusted Types; a plain
// string (and no second try) where the page's CSP refuses the policy. happy-dom has no Trusted
// Types: each test gives the window a stand-in factory.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

type Module = typeof import('./trusted-script-url.ts')
type Rules = { createScriptURL(url: string): string }

const BESIDE = 'https://cdn.example/widget/1.2.0/'
const own = (file: string) => `${BESIDE}${file}`

/** What the stand-in policy makes of a URL: an object, as a TrustedScriptURL is. */
class FakeTrustedScriptUrl {
  constructor(readonly url: string) {}
  toString() {
    return this.url
  }
}

let helper: Module
let created: Array<{ name: string; rules: Rules }>

function giveTrustedTypes(createPolicy?: (name: string, rules: Rules) => unknown) {
  Object.defineProperty(window, 'trustedTypes', {
    configurable: true,
    value: {
      createPolicy: vi.fn(
        createPolicy ??
          ((name: string, rules: Rules) => {
            created.push({ name, rules })
            return {
              createScriptURL: (url: string) =>
                new FakeTrustedScriptUrl(rules.createScriptURL(url)),
            }
          }),
      ),
    },
  })
}

beforeEach(async () => {
  created = []
  vi.resetModules()
  helper = await import('./trusted-script-url.ts')
})

afterEach(() => {
  Reflect.deleteProperty(window, 'trustedTypes')
})

describe('without Trusted Types', () => {
  it('gives the URL back as it is, and makes no policy', () => {
    expect('trustedTypes' in window).toBe(false)
    expect(helper.scriptUrl(own('referral-widget-ui.js'))).toBe(own('referral-widget-ui.js'))
    // Not the widget's: still a plain string, as the page's own would be (no policy to refuse it).
    expect(helper.scriptUrl('https://elsewhere.example/x.js')).toBe(
      'https://elsewhere.example/x.js',
    )
    expect(helper.policyRefused()).toBe(false)
  })
})

describe('with Trusted Types', () => {
  beforeEach(() => giveTrustedTypes())

  it('makes one policy, referral-widget, on first use, and every file beside the first uses it', () => {
    expect(created).toEqual([])
    const files = [
      'referral-widget-ui.js',
      'referral-widget-messages-de.js',
      'referral-widget-messages-pt-br.js',
      'referral-widget-qr.js',
      'referral-widget-link.js',
      'referral-widget-cookie.js',
      'referral-widget-outbound.js',
    ]
    for (const file of files) {
      const url = helper.scriptUrl(own(file)) as unknown
      expect(url).toBeInstanceOf(FakeTrustedScriptUrl)
      expect(String(url)).toBe(own(file))
    }
    expect(created.map(({ name }) => name)).toEqual(['referral-widget'])
    expect(helper.policyRefused()).toBe(false)
  })

  it('the policy refuses every URL but the widget’s own files beside its own script', () => {
    helper.scriptUrl(own('referral-widget-ui.js'))
    const foreign = [
      'https://elsewhere.example/widget/1.2.0/referral-widget-ui.js', // another origin
      'https://cdn.example/widget/1.1.0/referral-widget-ui.js', // another folder
      `${BESIDE}nested/referral-widget-ui.js`,
      `${BESIDE}../1.1.0/referral-widget-ui.js`,
      own('app.js'), // beside it, but not the widget's
      own('referral-widget-evil.js'),
      own('referral-widget.js'), // the tracking file never loads itself
      own('referral-widget-ui.js?callback=x'),
      own('referral-widget-ui.js#x'),
      own('referral-widget-messages-deu.js'),
      'javascript:alert(1)//referral-widget-ui.js',
      `data:text/javascript,alert(1)//${BESIDE}referral-widget-ui.js`,
      'referral-widget-ui.js', // relative: resolved by the page, not beside the script
    ]
    for (const url of foreign) {
      expect(() => helper.scriptUrl(url), url).toThrow(/not the widget's/)
      // The same from the policy itself, whoever holds it.
      expect(() => created[0]?.rules.createScriptURL(url), url).toThrow(/not the widget's/)
    }
    expect(created).toHaveLength(1)
  })

  it('the folder is the one of the first file asked for: later ones cannot move it', () => {
    helper.scriptUrl(own('referral-widget-messages-fr.js'))
    expect(() => helper.scriptUrl('https://elsewhere.example/referral-widget-ui.js')).toThrow()
    expect(String(helper.scriptUrl(own('referral-widget-ui.js')))).toBe(
      own('referral-widget-ui.js'),
    )
  })
})

describe('a page whose CSP refuses the policy', () => {
  it('gives plain strings, says it was refused, and does not ask again', () => {
    const refusal = vi.fn(() => {
      throw new TypeError(
        "Failed to execute 'createPolicy' on 'TrustedTypePolicyFactory': Policy \"referral-widget\" disallowed.",
      )
    })
    giveTrustedTypes(refusal)
    expect(helper.scriptUrl(own('referral-widget-ui.js'))).toBe(own('referral-widget-ui.js'))
    expect(helper.scriptUrl(own('referral-widget-qr.js'))).toBe(own('referral-widget-qr.js'))
    expect(helper.policyRefused()).toBe(true)
    expect(refusal).toHaveBeenCalledTimes(1)
    expect(refusal).toHaveBeenCalledWith('referral-widget', expect.any(Object))
  })
})
