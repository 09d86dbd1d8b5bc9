// The shape of a language's messages, apart from the catalog so each language can name it
// without importing the catalog that imports them.
/** A message that shows a count: one text per plural category of the language (`other` always). */
export type PluralMessage = { other: string } & Partial<
  Record<'zero' | 'one' | 'two' | 'few' | 'many', string>
>

// Built-in messages. Placeholders in braces are filled in by `message()`; every message can be
// replaced by the host (`messages` option or `data-messages`).
export interface Messages {
  /** {give}: the friend's reward; {get}: the referrer's. */
  headline: string
  referrerReward: string
  referredReward: string
  /** The same for a campaign whose reward is earned by the friend's first purchase (extension). */
  referrerRewardPurchase: string
  referredRewardPurchase: string
  linkLabel: string
  copy: string
  copied: string
  copyFailed: string
  share: string
  shareVia: string
  /** What each channel shares; {give}, {get}: the rewards; {url}: the link (added at the end when left out). */
  emailSubject: string
  emailBody: string
  xText: string
  whatsappText: string
  linkedinText: string
  /** The native share sheet's text; the link goes alongside it unless {url} places it. */
  nativeText: string
  /**
   * The same five texts for a campaign whose rewards come with the friend's first purchase
   * (extension); the subject, which promises no sign-up credit, is shared.
   */
  emailBodyPurchase: string
  xTextPurchase: string
  whatsappTextPurchase: string
  linkedinTextPurchase: string
  nativeTextPurchase: string
  /** The QR code control and its dialog; {url} in qrAlt: the link the code holds. */
  qr: string
  qrTitle: string
  qrAlt: string
  downloadPng: string
  downloadSvg: string
  close: string
  /** The launcher's and the dialog's name before the campaign's headline is known. */
  referFriend: string
  qrFailed: string
  signIn: string
  error: string
  /** {count}: the events waiting to be sent. */
  offline: PluralMessage
  rateLimited: PluralMessage
  /** The referrer's results under the link; {count}: friends who signed up. */
  summary: PluralMessage
  /** Beside it in a purchase campaign (extension); {count}: friends who made a first purchase. */
  summaryBought: PluralMessage
  /** Beside it when they earned something; {amount}: the rewards earned, formatted. */
  summaryEarned: string
  testMode: string
  /** The referred visitor's banner; {give}: their reward. */
  banner: string
  /** The same for a campaign that rewards the first purchase (extension). */
  bannerPurchase: string
  /**
   * The friend's promotion code in the banner (extension): the label of the code, its copy button
   * and what the copy did.
   */
  codeLabel: string
  copyCode: string
  codeCopied: string
  codeCopyFailed: string
  dismiss: string
  loading: string
}
