import * as labels from '../launcher/labels.ts'
import type { Messages } from './messages.ts'

/** Italian. */
export const it: Messages = {
  headline: 'Regala {give}, ricevi {get}',
  referrerReward: 'Tu ricevi {get} di credito',
  referredReward: 'Il tuo amico riceve {give} di credito',
  referrerRewardPurchase: 'Tu ricevi {get} di credito quando il tuo amico fa il primo acquisto',
  referredRewardPurchase: 'Il tuo amico riceve {give} di credito al suo primo acquisto',
  linkLabel: 'Il tuo link di invito',
  copy: 'Copia link',
  copied: 'Link copiato',
  copyFailed: 'Impossibile copiare: seleziona il link e copialo tu',
  share: 'Condividi',
  shareVia: 'Condividi su {network}',
  emailSubject: 'Un regalo per te: {give} di credito',
  emailBody: 'Ciao! Iscriviti con il mio link e ricevi {give} di credito: {url}',
  xText: 'Ricevi {give} di credito iscrivendoti con il mio link: {url}',
  whatsappText: 'Ehi, iscriviti con il mio link e ricevi {give} di credito: {url}',
  linkedinText: 'Te lo consiglio: iscriviti con il mio link e ricevi {give} di credito. {url}',
  nativeText: 'Iscriviti con il mio link e ricevi {give} di credito.',
  emailBodyPurchase:
    'Ciao! Iscriviti con il mio link e ricevi {give} di credito al tuo primo acquisto: {url}',
  xTextPurchase:
    'Ricevi {give} di credito al tuo primo acquisto iscrivendoti con il mio link: {url}',
  whatsappTextPurchase:
    'Ehi, iscriviti con il mio link e ricevi {give} di credito al tuo primo acquisto: {url}',
  linkedinTextPurchase:
    'Te lo consiglio: iscriviti con il mio link e ricevi {give} di credito al tuo primo acquisto. {url}',
  nativeTextPurchase: 'Iscriviti con il mio link e ricevi {give} di credito al tuo primo acquisto.',
  qr: 'Codice QR',
  qrTitle: 'Inquadra per aprire il tuo link',
  qrAlt: 'Codice QR di {url}',
  downloadPng: 'Scarica PNG',
  downloadSvg: 'Scarica SVG',
  close: 'Chiudi',
  referFriend: labels.it,
  qrFailed: 'Impossibile caricare il codice QR.',
  signIn: 'Accedi per ottenere il tuo link di invito.',
  error: 'I premi per gli inviti non sono disponibili al momento.',
  offline: {
    one: 'Sei offline. {count} azione verrà inviata quando tornerai online.',
    many: 'Sei offline. {count} di azioni verranno inviate quando tornerai online.',
    other: 'Sei offline. {count} azioni verranno inviate quando tornerai online.',
  },
  rateLimited: {
    one: 'Servizio occupato. {count} azione verrà inviata a breve.',
    many: 'Servizio occupato. {count} di azioni verranno inviate a breve.',
    other: 'Servizio occupato. {count} azioni verranno inviate a breve.',
  },
  summary: { one: '{count} amico si è iscritto', other: '{count} amici si sono iscritti' },
  summaryBought: { one: '{count} ha acquistato', other: '{count} hanno acquistato' },
  summaryEarned: '{amount} guadagnati',
  testMode: 'Modalità test',
  banner: 'Un amico ti ha invitato: iscriviti e ricevi {give} di credito',
  bannerPurchase: 'Un amico ti ha invitato: ricevi {give} di credito al tuo primo acquisto',
  codeLabel: 'Il tuo codice da usare al pagamento',
  copyCode: 'Copia codice',
  codeCopied: 'Codice copiato',
  codeCopyFailed: 'Impossibile copiare: seleziona il codice e copialo tu',
  dismiss: 'Chiudi',
  loading: 'Caricamento dei tuoi premi per gli inviti',
}
