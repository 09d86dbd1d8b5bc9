// The precise checks of the script tag's attributes: each refusal in a sentence that says which
// attribute, its value and what was expected. The tracking part reads its tag with the quiet
// checks (attributes.ts) and loads these (the checks file) only when there is something to say.
import { checkCookieDomain } from '../core/attribution-cookie.ts'
import { parsePublicKey } from '../core/keys.ts'
import { checkOption } from '../core/option-errors.ts'
import { quote } from '../core/options.ts'
import { ConfigError } from '../shared/errors.ts'
import type { AttributeChecks } from './attributes.ts'

export const precise: AttributeChecks = {
  option: (option, value, attribute) => checkOption(option, value, attribute, 'is ignored'),
  key: (written, attribute) => parsePublicKey(written ?? undefined, attribute),
  cookieDomain: (domain, href, attribute) =>
    checkCookieDomain(domain, href, attribute, 'is ignored'),
  noApi: (attribute) => {
    throw new ConfigError(
      attribute,
      `${attribute} is required when the script is not loaded from the service’s origin.`,
    )
  },
  badGlobal: (value) =>
    `data-global=${quote(value)} is ignored: it must be a name a script can call, such as ReferralWidget.`,
  ownGlobal: (name) =>
    `window.${name} is the page's own, so the widget leaves it alone. Add data-global="ReferralWidget" (any free name) to its script tag, and use that name in the stub and your calls.`,
}
