// The script tag's data- attributes (WIDGET.md section 1): each bad attribute is one clear
// problem sentence and its default; only a missing, malformed or secret key, or no service to
// talk to, stops the widget (good attributes: attributes-good.test.ts).
import { describe, expect, it } from 'vitest'
import { refusal as thrown } from '../../test/support/errors.ts'
import { ORIGIN, read, readAttributes, SRC, script } from '../../test/support/script-attributes.ts'
import { OPTION_ATTRIBUTES } from '../core/options.ts'

describe('each bad attribute: one problem sentence, and its default', () => {
  it.each([
    ['api', 'javascript:alert(1)', { apiBase: ORIGIN }],
    ['api', 'ftp://files.example/', { apiBase: ORIGIN }],
    ['api', 'not a url', { apiBase: ORIGIN }],
    ['api', '//cdn.example/referral', { apiBase: ORIGIN }],
    ['api', 'referral', { apiBase: ORIGIN }],
    ['cookie-domain', 'https://shop.example', { cookieDomain: undefined }],
    ['cookie-domain', 'shop example', { cookieDomain: undefined }],
    ['attribution', 'newest', { attribution: undefined }],
    ['campaign', 'summer-sale', { campaignId: undefined }],
    ['user-id', 'alice smith', { userId: undefined }],
    ['user-id', '<script>', { userId: undefined }],
    ['ref-param', 'ref,<x>', { refParam: undefined }],
    ['ref-param', ',', { refParam: undefined }],
    ['landing-url', 'javascript:alert(1)', { landingUrl: undefined }],
    ['landing-url', 'data:text/html,<script>alert(1)</script>', { landingUrl: undefined }],
    ['landing-url', '/join', { landingUrl: undefined }],
    ['locale', 'not a locale', { locale: undefined }],
    ['theme', 'neon', { theme: undefined }],
    ['clean-url', 'maybe', { cleanUrl: undefined }],
    ['honor-gpc', 'yes', { honorGpc: undefined }],
    ['consent', 'granted', { consent: undefined }],
    ['outbound', 'app.example.io:8443', { outbound: undefined }],
    ['outbound', '*.', { outbound: undefined }],
    ['outbound', 'a.test, *example.org', { outbound: undefined }],
  ])('data-%s=%j', (name, value, defaults) => {
    const config = read({ [`data-${name}`]: value })

    expect(config.problems).toHaveLength(1)
    const [problem] = config.problems
    expect(problem).toMatch(new RegExp(`^data-${name}=`))
    expect(problem).toContain(JSON.stringify(value))
    expect(problem).toMatch(/ is ignored: .+\.$/)
    expect(config.options).toMatchObject({ publicKey: 'pk_test_acme' })
    for (const [option, fallback] of Object.entries(defaults)) {
      expect(config.options[option as keyof typeof config.options]).toEqual(fallback)
    }
  })

  it.each(Object.entries(OPTION_ATTRIBUTES).filter(([option]) => option !== 'publicKey'))(
    '%s is read from the attribute the options table names for the script tag',
    (option, names) => {
      const config = read({ [names.scriptTag]: 'not a value!' })
      expect(config.problems).toHaveLength(1)
      // A credential is never quoted back: the problem goes to the console.
      const shown = option === 'userToken' ? '' : '="not a value!"'
      expect(config.problems[0]).toMatch(`${names.scriptTag}${shown} is ignored: `)
    },
  )

  it('data-user-token: a well-formed token is taken as it is', () => {
    const token = `v1.${'e'.repeat(40)}.${'s'.repeat(43)}`
    const config = read({ 'data-user-id': 'alice', 'data-user-token': token })
    expect(config.problems).toEqual([])
    expect(config.options.userToken).toBe(token)
  })

  it.each([
    ['a forged shape', 'v1.abc.def'],
    ['another version', `v2.${'e'.repeat(40)}.${'s'.repeat(43)}`],
    ['too long', `v1.${'e'.repeat(600)}.${'s'.repeat(43)}`],
  ])('data-user-token refused (%s): the problem never quotes the token', (_, token) => {
    const config = read({ 'data-user-token': token })
    expect(config.options.userToken).toBeUndefined()
    expect(config.problems).toEqual([
      'data-user-token is ignored: a user token is v1.<payload>.<signature>, minted by your server with signUserToken.',
    ])
    expect(config.problems.join()).not.toContain(token.slice(3, 12))
  })

  it.each(['not json', '[1,2]', '"copy"', 'null', '42'])('data-messages=%j', (value) => {
    const config = read({ 'data-messages': value })
    expect(config.problems).toHaveLength(1)
    expect(config.problems[0]).toMatch(/^data-messages=.* is ignored: .*JSON object.*\.$/)
    expect(config.messages).toBeUndefined()
  })

  it('several bad attributes: one sentence each, and the good ones still apply', () => {
    const config = read({
      'data-theme': 'neon',
      'data-locale': 'not a locale',
      'data-campaign': 'summer',
      'data-user-id': 'alice',
      'data-landing-url': 'https://shop.example/',
    })
    expect(config.problems).toHaveLength(3)
    expect(config.problems.map((problem) => problem.split('=')[0]).sort()).toEqual([
      'data-campaign',
      'data-locale',
      'data-theme',
    ])
    expect(config.options.userId).toBe('alice')
    expect(config.options.landingUrl).toBe('https://shop.example/')
  })

  it('a very long bad value is shortened in the sentence', () => {
    const value = `javascript:${'a'.repeat(500)}`
    const [problem] = read({ 'data-landing-url': value }).problems
    expect(problem).toBeDefined()
    expect(problem?.length).toBeLessThan(200)
    expect(problem).not.toContain(value)
    expect(problem).toContain('…')
  })

  it('quotes and markup in a bad value are quoted, not passed through', () => {
    const [problem] = read({ 'data-theme': '"><img src=x>' }).problems
    expect(problem).toBe('data-theme="\\"><img src=x>" is ignored: use light, dark or auto.')
  })
})

describe('the key', () => {
  it.each(['sk_test_acme', 'sk_live_acme', ' sk_test_acme '])(
    'a secret key (%j) is refused: it must never reach a browser',
    (key) => {
      const error = thrown(() => read({ 'data-key': key }))
      expect(error.option).toBe('data-key')
      expect(error.message).toMatch(/Secret keys must never reach a browser/)
      expect(error.message).not.toContain('acme')
    },
  )

  it('a secret key is refused even when everything else is fine', () => {
    const error = thrown(() =>
      read({ 'data-key': 'sk_live_acme', 'data-api': 'https://api.example/' }),
    )
    expect(error.message).toMatch(/must never reach a browser/)
  })

  it('a missing key is refused, naming data-key', () => {
    const error = thrown(() => readAttributes(script({}), SRC))
    expect(error.option).toBe('data-key')
    expect(error.message).toMatch(/public key is required \(data-key\)/)
  })

  it.each(['', 'pk_prod_acme', 'pk_test_ab', 'acme', 'pk_test_acme!'])(
    'a malformed key (%j) is refused',
    (key) => {
      const error = thrown(() => read({ 'data-key': key }))
      expect(error.option).toBe('data-key')
      expect(error.message).toMatch(/data-key/)
    },
  )
})

describe('no service to talk to', () => {
  it('no data-api and no script URL: refused, naming data-api', () => {
    const error = thrown(() => readAttributes(script({ 'data-key': 'pk_test_acme' }), undefined))
    expect(error.option).toBe('data-api')
    expect(error.message).toMatch(/data-api is required/)
  })

  it('no usable data-api and a script URL that is not http(s): refused', () => {
    const error = thrown(() => read({ 'data-api': 'javascript:x' }, 'file:///C:/widget.js'))
    expect(error.option).toBe('data-api')
  })
})
