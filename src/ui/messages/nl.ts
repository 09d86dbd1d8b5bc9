import * as labels from '../launcher/labels.ts'
import type { Messages } from './messages.ts'

/** Dutch. */
export const nl: Messages = {
  headline: 'Geef {give}, krijg {get}',
  referrerReward: 'Jij krijgt {get} tegoed',
  referredReward: 'Je vriend krijgt {give} tegoed',
  referrerRewardPurchase: 'Jij krijgt {get} tegoed zodra je vriend voor het eerst iets koopt',
  referredRewardPurchase: 'Je vriend krijgt {give} tegoed bij de eerste aankoop',
  linkLabel: 'Jouw verwijzingslink',
  copy: 'Link kopiëren',
  copied: 'Link gekopieerd',
  copyFailed: 'Kopiëren mislukt: selecteer de link en kopieer hem zelf',
  share: 'Delen',
  shareVia: 'Delen via {network}',
  emailSubject: 'Een cadeautje voor jou: {give} tegoed',
  emailBody: 'Hoi! Meld je aan via mijn link en krijg {give} tegoed: {url}',
  xText: 'Krijg {give} tegoed als je je aanmeldt via mijn link: {url}',
  whatsappText: 'Hé, meld je aan via mijn link en krijg {give} tegoed: {url}',
  linkedinText: 'Aanrader: meld je aan via mijn link en krijg {give} tegoed. {url}',
  nativeText: 'Meld je aan via mijn link en krijg {give} tegoed.',
  emailBodyPurchase:
    'Hoi! Meld je aan via mijn link en krijg {give} tegoed bij je eerste aankoop: {url}',
  xTextPurchase:
    'Krijg {give} tegoed bij je eerste aankoop als je je aanmeldt via mijn link: {url}',
  whatsappTextPurchase:
    'Hé, meld je aan via mijn link en krijg {give} tegoed bij je eerste aankoop: {url}',
  linkedinTextPurchase:
    'Aanrader: meld je aan via mijn link en krijg {give} tegoed bij je eerste aankoop. {url}',
  nativeTextPurchase: 'Meld je aan via mijn link en krijg {give} tegoed bij je eerste aankoop.',
  qr: 'QR-code',
  qrTitle: 'Scan om je link te openen',
  qrAlt: 'QR-code van {url}',
  downloadPng: 'PNG downloaden',
  downloadSvg: 'SVG downloaden',
  close: 'Sluiten',
  referFriend: labels.nl,
  qrFailed: 'De QR-code kon niet worden geladen.',
  signIn: 'Log in om je verwijzingslink te krijgen.',
  error: 'Verwijzingsbeloningen zijn nu niet beschikbaar.',
  offline: {
    one: 'Je bent offline. {count} actie wordt verzonden zodra je terug bent.',
    other: 'Je bent offline. {count} acties worden verzonden zodra je terug bent.',
  },
  rateLimited: {
    one: 'Het is nu druk. {count} actie wordt zo verzonden.',
    other: 'Het is nu druk. {count} acties worden zo verzonden.',
  },
  summary: { one: '{count} vriend doet mee', other: '{count} vrienden doen mee' },
  summaryBought: { one: '{count} heeft gekocht', other: '{count} hebben gekocht' },
  summaryEarned: '{amount} verdiend',
  testMode: 'Testmodus',
  banner: 'Een vriend heeft je uitgenodigd: meld je aan en krijg {give} tegoed',
  bannerPurchase: 'Een vriend heeft je uitgenodigd: krijg {give} tegoed bij je eerste aankoop',
  codeLabel: 'Jouw code bij het afrekenen',
  copyCode: 'Code kopiëren',
  codeCopied: 'Code gekopieerd',
  codeCopyFailed: 'Kopiëren mislukt: selecteer de code en kopieer hem zelf',
  dismiss: 'Sluiten',
  loading: 'Je verwijzingsbeloningen worden geladen',
}
