import type { Messages } from './messages.ts'

export const de: Messages = {
  headline: 'Schenke {give}, erhalte {get}',
  referrerReward: 'Du erhältst {get} Guthaben',
  referredReward: 'Deine Freunde erhalten {give} Guthaben',
  linkLabel: 'Dein Empfehlungslink',
  copy: 'Link kopieren',
  copied: 'Link kopiert',
  copyFailed: 'Kopieren fehlgeschlagen: Link markieren und selbst kopieren',
  share: 'Teilen',
  shareVia: 'Über {network} teilen',
  shareSubject: 'Ein Geschenk für dich: {give} Guthaben',
  shareText: 'Melde dich über meinen Link an und erhalte {give} Guthaben.',
  signIn: 'Melde dich an, um deinen Empfehlungslink zu erhalten.',
  error: 'Empfehlungsprämien sind gerade nicht verfügbar.',
  offline: 'Du bist offline. Deine Aktivität wird gesendet, sobald du wieder online bist.',
  rateLimited: 'Gerade ausgelastet. Deine Aktivität wird in Kürze gesendet.',
  testMode: 'Testmodus',
  banner: 'Du wurdest eingeladen: Melde dich an und erhalte {give} Guthaben',
  dismiss: 'Schließen',
  loading: 'Empfehlungsprämien werden geladen',
}
