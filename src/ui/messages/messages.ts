// The shape of a language's messages, apart from the catalog so each language can name it
// without importing the catalog that imports them.

// Built-in messages. Placeholders in braces are filled in by `message()`; every message can be
// replaced by the host (`messages` option or `data-messages`).
export interface Messages {
  /** {give}: the friend's reward; {get}: the referrer's. */
  headline: string
  referrerReward: string
  referredReward: string
  linkLabel: string
  copy: string
  copied: string
  copyFailed: string
  share: string
  shareVia: string
  /** Email subject and the text shared with the link; {give}: the friend's reward. */
  shareSubject: string
  shareText: string
  signIn: string
  error: string
  offline: string
  rateLimited: string
  testMode: string
  /** The referred visitor's banner; {give}: their reward. */
  banner: string
  dismiss: string
  loading: string
}
