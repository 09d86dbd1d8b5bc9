// What each option expects, in words: the end of the sentence a refused value gets. Apart from
// the checks themselves (options.ts) so that code which only needs to know whether a value is
// accepted (the script tag's tracking part) does not carry them.
import { type Accepted, type CheckedOption, checked } from './options.ts'

/** A user id's, on its own: the tracking part's signup check needs this one alone. */
export const USER_ID_EXPECTED = 'a user id is 1-128 letters, digits or _ . : @ -'
/** A user token's, on its own: the later part's checks need it and the user id's alone. */
export const USER_TOKEN_EXPECTED =
  'a user token is v1.<payload>.<signature>, minted by your server with signUserToken'

export const EXPECTED: { readonly [K in CheckedOption]: string } = {
  apiBase: 'it must be an absolute http: or https: URL, or a path such as /referral',
  campaignId: 'a campaign id looks like camp_…',
  userId: USER_ID_EXPECTED,
  userToken: USER_TOKEN_EXPECTED,
  refParam: 'give a parameter name or a comma-separated list of them (letters, digits, _ . -)',
  landingUrl: 'it must be an absolute http: or https: URL',
  locale: 'it must be a language tag such as en-US',
  theme: 'use light, dark or auto',
  cleanUrl: 'use true or false',
  consent: 'the only value is "required", or leave it out',
  honorGpc: 'use true or false',
  cookieDomain: 'it must be a domain such as shop.example, or auto',
  attribution: 'use last or first',
  debug: 'use true or false',
  checkout: 'use true or false',
  outbound:
    'every entry must be a host name such as app.example.io, or *.example.org for its subdomains',
}

/**
 * The value to use for an option, or a ConfigError naming it (as `label`: an attribute's name
 * where it came from one) with the value and what was expected.
 */
export function checkOption<K extends CheckedOption>(
  name: K,
  value: unknown,
  label: string = name,
  verdict = 'is refused',
): Accepted<K> {
  return checked(name, value, EXPECTED[name], label, verdict)
}
