import * as labels from '../launcher/labels.ts'
import type { Messages } from './messages.ts'

/** German. */
export const de: Messages = {
  headline: 'Schenke {give}, erhalte {get}',
  referrerReward: 'Du erhältst {get} Guthaben',
  referredReward: 'Deine Freunde erhalten {give} Guthaben',
  referrerRewardPurchase: 'Du erhältst {get} Guthaben, wenn deine Freunde zum ersten Mal einkaufen',
  referredRewardPurchase: 'Deine Freunde erhalten {give} Guthaben bei ihrem ersten Einkauf',
  linkLabel: 'Dein Empfehlungslink',
  copy: 'Link kopieren',
  copied: 'Link kopiert',
  copyFailed: 'Kopieren fehlgeschlagen: Link markieren und selbst kopieren',
  share: 'Teilen',
  shareVia: 'Über {network} teilen',
  emailSubject: 'Ein Geschenk für dich: {give} Guthaben',
  emailBody: 'Hallo! Melde dich über meinen Link an und erhalte {give} Guthaben: {url}',
  xText: 'Hol dir {give} Guthaben, wenn du dich über meinen Link anmeldest: {url}',
  whatsappText: 'Hey, melde dich über meinen Link an und erhalte {give} Guthaben: {url}',
  linkedinText: 'Meine Empfehlung: über meinen Link anmelden und {give} Guthaben erhalten. {url}',
  nativeText: 'Melde dich über meinen Link an und erhalte {give} Guthaben.',
  emailBodyPurchase:
    'Hallo! Melde dich über meinen Link an und erhalte {give} Guthaben bei deinem ersten Einkauf: {url}',
  xTextPurchase:
    'Hol dir {give} Guthaben bei deinem ersten Einkauf, wenn du dich über meinen Link anmeldest: {url}',
  whatsappTextPurchase:
    'Hey, melde dich über meinen Link an und erhalte {give} Guthaben bei deinem ersten Einkauf: {url}',
  linkedinTextPurchase:
    'Meine Empfehlung: über meinen Link anmelden und beim ersten Einkauf {give} Guthaben erhalten. {url}',
  nativeTextPurchase:
    'Melde dich über meinen Link an und erhalte {give} Guthaben bei deinem ersten Einkauf.',
  qr: 'QR-Code',
  qrTitle: 'Scannen, um deinen Link zu öffnen',
  qrAlt: 'QR-Code für {url}',
  downloadPng: 'PNG herunterladen',
  downloadSvg: 'SVG herunterladen',
  close: 'Schließen',
  referFriend: labels.de,
  qrFailed: 'Der QR-Code konnte nicht geladen werden.',
  signIn: 'Melde dich an, um deinen Empfehlungslink zu erhalten.',
  error: 'Empfehlungsprämien sind gerade nicht verfügbar.',
  offline: {
    one: 'Du bist offline. {count} Aktion wird gesendet, sobald du wieder online bist.',
    other: 'Du bist offline. {count} Aktionen werden gesendet, sobald du wieder online bist.',
  },
  rateLimited: {
    one: 'Gerade ausgelastet. {count} Aktion wird in Kürze gesendet.',
    other: 'Gerade ausgelastet. {count} Aktionen werden in Kürze gesendet.',
  },
  summary: { one: '{count} Freund ist beigetreten', other: '{count} Freunde sind beigetreten' },
  summaryBought: { one: '{count} hat eingekauft', other: '{count} haben eingekauft' },
  summaryEarned: '{amount} verdient',
  testMode: 'Testmodus',
  banner: 'Du wurdest eingeladen: Melde dich an und erhalte {give} Guthaben',
  bannerPurchase: 'Du wurdest eingeladen: Erhalte {give} Guthaben bei deinem ersten Einkauf',
  codeLabel: 'Dein Code für die Kasse',
  copyCode: 'Code kopieren',
  codeCopied: 'Code kopiert',
  codeCopyFailed: 'Kopieren fehlgeschlagen: Code markieren und selbst kopieren',
  dismiss: 'Schließen',
  loading: 'Empfehlungsprämien werden geladen',
}
