import { describe, expect, it } from 'vitest'
import { refusal } from '../../test/support/errors.ts'
import { checkOption } from './option-errors.ts'

describe('checkOption', () => {
  it.each([
    ['refParam', 'via', ['via']],
    ['refParam', 'ref,via', ['ref', 'via']],
    ['refParam', ' ref , via ', ['ref', 'via']],
    ['refParam', 'utm_ref,r.code,x-ref', ['utm_ref', 'r.code', 'x-ref']],
    ['refParam', ['ref', ' via '], ['ref', 'via']],
    ['landingUrl', 'https://shop.example/join?x=1', 'https://shop.example/join?x=1'],
    ['landingUrl', 'http://shop.example', 'http://shop.example/'],
    ['locale', 'EN-us', 'en-US'],
    ['theme', 'dark', 'dark'],
    ['cleanUrl', 'false', false],
    ['cleanUrl', '', true],
    ['cleanUrl', false, false],
    ['consent', 'required', 'required'],
    ['campaignId', 'camp_acmeFriendsAndFamily', 'camp_acmeFriendsAndFamily'],
    ['userId', 'user_42@acme.test', 'user_42@acme.test'],
    ['apiBase', 'https://shop.example/referral', 'https://shop.example/referral'],
    ['apiBase', '/referral', '/referral'],
    ['apiBase', '/', '/'],
    ['cookieDomain', 'shop.example', 'shop.example'],
    ['cookieDomain', '.Shop.Example', 'shop.example'],
    ['cookieDomain', 'localhost', 'localhost'],
  ] as const)('%s accepts %j as %j', (name, value, expected) => {
    expect(checkOption(name, value)).toEqual(expected)
  })

  it.each([
    ['refParam', '', /parameter name/],
    ['refParam', 'ref,', /parameter name/],
    ['refParam', 'my ref', /parameter name/],
    ['refParam', '<ref>', /parameter name/],
    ['refParam', 'ref=1', /parameter name/],
    ['refParam', [], /parameter name/],
    ['refParam', ['ref', ''], /parameter name/],
    ['refParam', 'r'.repeat(65), /parameter name/],
    ['refParam', 42, /parameter name/],
    ['landingUrl', 'javascript:alert(1)', /http: or https:/],
    ['landingUrl', '/join', /http: or https:/],
    ['apiBase', 'ftp://files.example/', /http: or https:/],
    ['apiBase', 'referral', /a path such as \/referral/],
    ['apiBase', '//cdn.example/referral', /a path such as \/referral/],
    ['apiBase', '/\\evil.example', /a path such as \/referral/],
    ['apiBase', '/a b', /a path such as \/referral/],
    ['cookieDomain', 'https://shop.example', /a domain such as shop.example/],
    ['cookieDomain', 'shop.example:8080', /a domain such as shop.example/],
    ['cookieDomain', 'shop..example', /a domain such as shop.example/],
    ['cookieDomain', '', /a domain such as shop.example/],
    ['cookieDomain', 42, /a domain such as shop.example/],
    ['locale', 'not a locale', /language tag/],
    ['locale', 42, /language tag/],
    ['theme', 'neon', /light, dark or auto/],
    ['cleanUrl', 'maybe', /true or false/],
    ['consent', 'yes', /"required"/],
    ['campaignId', 'summer', /camp_/],
    ['userId', 'a b', /letters, digits/],
    ['userId', undefined, /letters, digits/],
  ] as const)('%s refuses %j, naming the option and the value', (name, value, expected) => {
    const error = refusal(() => checkOption(name, value))
    expect(error.option).toBe(name)
    expect(error.message).toMatch(expected)
    expect(error.message.startsWith(`${name}=`)).toBe(true)
    expect(error.message).toMatch(/ is refused: .+\.$/)
  })

  it('names an attribute and says it is ignored where the value came from one', () => {
    const error = refusal(() => checkOption('theme', '"><img src=x>', 'data-theme', 'is ignored'))
    expect(error.option).toBe('data-theme')
    expect(error.message).toBe('data-theme="\\"><img src=x>" is ignored: use light, dark or auto.')
  })

  it('quotes a long value shortened, never whole', () => {
    const value = `javascript:${'a'.repeat(500)}`
    const error = refusal(() => checkOption('landingUrl', value))
    expect(error.message.length).toBeLessThan(200)
    expect(error.message).toContain('…')
  })
})
