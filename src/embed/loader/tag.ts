// The loader's reading of its script tag: only the attributes it acts on, each accepted as the
// tracking part accepts it. A tag it cannot read cleanly (the key included) is left to the
// tracking part, which says precisely what is wrong (attributes.ts, and the checks file). Every
// attribute the loader does not read matters only on a page where the tracking part runs, and is
// checked (and reported) there.
import type { PublicKey } from '../../core/keys.ts'
import { shortHash } from '../../core/short-hash.ts'

/** What the loader needs of a tag that reads cleanly. */
export interface Tag {
  /** `referral:<mode>:<hash of the key>:`, the widget's storage keys' prefix. */
  namespace: string
  /** The global the command function goes to (data-global). */
  global: string
  refParams: string[]
  consentRequired: boolean
  honorGpc: boolean
  /** data-cookie-domain is set: the site's shared cookie may hold a referral. */
  cookieDomain: boolean
  /** data-debug is there, whatever its value (the tracking part reads it): debug mode. */
  debug: boolean
}

/** A name a script can write as `NAME(...)`, and not one of the page's own objects. */
export const GLOBAL_NAME =
  /^(?!(window|self|top|parent|frames|document|location|name)$)[A-Za-z_$][\w$]{0,63}$/

/** A public key as the contract has it, around it perhaps the spaces parsePublicKey drops. */
const PUBLIC_KEY = /^\s*(pk_(test|live)_[A-Za-z0-9]{4,64})\s*$/

/** The tag's key as parsePublicKey reads it, or undefined where it would refuse it. */
export function readKey(written: string | null): PublicKey | undefined {
  const key = PUBLIC_KEY.exec(written ?? '')?.[1]
  return key ? { key, mode: key.slice(3, 7) as PublicKey['mode'], hash: shortHash(key) } : undefined
}

/** The tag as the loader needs it, or undefined when it does not read cleanly. */
export function readTag(tag: Element): Tag | undefined {
  const get = (name: string) => tag.getAttribute(name)
  const key = readKey(get('data-key'))
  const global = get('data-global') ?? 'Referral'
  const refParams = (get('data-ref-param') ?? 'ref').split(',').map((name) => name.trim())
  const consent = get('data-consent')
  const gpc = get('data-honor-gpc')
  if (
    !key ||
    !GLOBAL_NAME.test(global) ||
    !refParams.every((name) => /^[\w.-]{1,64}$/.test(name)) ||
    (consent !== null && consent !== 'required') ||
    !/^(true|false)?$/.test(gpc ?? '') // data-honor-gpc: absent, empty, true or false
  )
    return
  return {
    namespace: `referral:${key.mode}:${key.hash}:`,
    global,
    refParams,
    consentRequired: consent !== null,
    honorGpc: gpc !== null && gpc !== 'false',
    cookieDomain: get('data-cookie-domain') !== null,
    debug: get('data-debug') !== null,
  }
}
