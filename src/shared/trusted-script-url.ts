// The elements that load the widget's own files, as a strict CSP takes them. Under a nonce
// policy (`script-src 'nonce-…'`) each carries the nonce of the widget's script tag. Under
// Trusted Types (`require-trusted-types-for 'script'`) a <script src> takes only a
// TrustedScriptURL. The script tag's files get theirs from one policy, `referral-widget`, made
// on first use by the loader; every file after it shares its copy of this module (a page can
// create a policy name only once, src/embed/loader-runtime.ts). The policy itself refuses every URL but
// the widget's own files beside its own script, whoever asks.

/**
 * The files the script tag's files load beside themselves: the one list of them, which the local
 * service reads too (demo/service/scripts.ts); test/own-files.test.ts holds it to the build's.
 */
export const OWN_FILE =
  /^referral-widget-(tracking|tracking-delivery|delivery|checks|debug|pins|ui|banner|launcher|link|cookie|outbound|checkout|qr|messages-[a-z]{2}(-[a-z]{2})?)\.js$/

/** What the policy makes is a TrustedScriptURL; the DOM typings only know a src as a string. */
interface Policy {
  createScriptURL(url: string): string
}

interface PolicyFactory {
  createPolicy(name: string, rules: Policy): Policy
}

/** Made on first use where the browser has Trusted Types; null where the page's CSP refused it. */
let policy: Policy | null | undefined

/**
 * `url` as a script's src: through the widget's policy where the browser has Trusted Types, else
 * as it is. The first URL asked for is the loader's, for a file beside itself: that folder is the
 * only one the policy accepts.
 */
export function scriptUrl(url: string): string {
  if (policy === undefined) {
    const folder = url.slice(0, url.lastIndexOf('/') + 1)
    try {
      policy = (window as { trustedTypes?: PolicyFactory }).trustedTypes?.createPolicy(
        'referral-widget',
        {
          createScriptURL(asked) {
            if (asked.startsWith(folder) && OWN_FILE.test(asked.slice(folder.length))) return asked
            throw new Error(`not the widget's: ${asked}`)
          },
        },
      )
    } catch {
      // Refused by the CSP: a plain string, which a page that does not enforce Trusted Types
      // still takes (one that does refuses it, and the caller says why).
      policy = null
    }
  }
  return policy ? policy.createScriptURL(url) : url
}

/** The nonce of the widget's script tag, set by the loader; every file it adds carries it. */
let nonce = ''
export const useNonce = (tag: HTMLElement) => {
  nonce = tag.nonce as string
}

/**
 * A `<script>` for one of the widget's files, or a `<link>` that preloads one, with the tag's
 * nonce. Throws where the page enforces Trusted Types and its CSP refused the widget's policy (a
 * preload too: nothing is fetched that could not run).
 */
export function ownScript(
  kind: 'script' | 'link',
  url: string,
): HTMLScriptElement & HTMLLinkElement {
  const element = document.createElement(kind) as HTMLScriptElement & HTMLLinkElement
  element.nonce = nonce
  // A <script>'s src is the Trusted Types sink, asked for a preload too (a detached <script>
  // fetches nothing): where it throws, nothing is fetched that could not run.
  ;(kind === 'script' ? element : document.createElement('script')).src = scriptUrl(url)
  if (kind === 'link') {
    element.rel = 'preload'
    element.as = 'script'
    element.href = url
  }
  return element
}

/** Whether the page's CSP refused the widget's policy. */
export const policyRefused = () => policy === null
