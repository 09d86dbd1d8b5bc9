import * as labels from '../launcher/labels.ts'
import type { Messages } from './messages.ts'

/** French. */
export const fr: Messages = {
  headline: 'Offrez {give}, recevez {get}',
  referrerReward: 'Vous recevez {get} de crédit',
  referredReward: 'Votre ami reçoit {give} de crédit',
  referrerRewardPurchase: 'Vous recevez {get} de crédit au premier achat de votre ami',
  referredRewardPurchase: 'Votre ami reçoit {give} de crédit à son premier achat',
  linkLabel: 'Votre lien de parrainage',
  copy: 'Copier le lien',
  copied: 'Lien copié',
  copyFailed: 'Copie impossible : sélectionnez le lien et copiez-le vous-même',
  share: 'Partager',
  shareVia: 'Partager via {network}',
  emailSubject: 'Un cadeau pour vous : {give} de crédit',
  emailBody: 'Bonjour ! Inscrivez-vous avec mon lien et recevez {give} de crédit : {url}',
  xText: 'Recevez {give} de crédit en vous inscrivant avec mon lien : {url}',
  whatsappText: 'Coucou, inscris-toi avec mon lien et reçois {give} de crédit : {url}',
  linkedinText: 'Je recommande : inscrivez-vous avec mon lien et recevez {give} de crédit. {url}',
  nativeText: 'Inscrivez-vous avec mon lien et recevez {give} de crédit.',
  emailBodyPurchase:
    'Bonjour ! Inscrivez-vous avec mon lien et recevez {give} de crédit à votre premier achat : {url}',
  xTextPurchase:
    'Recevez {give} de crédit à votre premier achat en vous inscrivant avec mon lien : {url}',
  whatsappTextPurchase:
    'Coucou, inscris-toi avec mon lien et reçois {give} de crédit à ton premier achat : {url}',
  linkedinTextPurchase:
    'Je recommande : inscrivez-vous avec mon lien et recevez {give} de crédit à votre premier achat. {url}',
  nativeTextPurchase:
    'Inscrivez-vous avec mon lien et recevez {give} de crédit à votre premier achat.',
  qr: 'Code QR',
  qrTitle: 'Scannez pour ouvrir votre lien',
  qrAlt: 'Code QR de {url}',
  downloadPng: 'Télécharger le PNG',
  downloadSvg: 'Télécharger le SVG',
  close: 'Fermer',
  referFriend: labels.fr,
  qrFailed: 'Le code QR n’a pas pu être chargé.',
  signIn: 'Connectez-vous pour obtenir votre lien de parrainage.',
  error: 'Les récompenses de parrainage ne sont pas disponibles pour le moment.',
  offline: {
    one: 'Vous êtes hors ligne. {count} action sera envoyée à votre retour.',
    many: 'Vous êtes hors ligne. {count} d’actions seront envoyées à votre retour.',
    other: 'Vous êtes hors ligne. {count} actions seront envoyées à votre retour.',
  },
  rateLimited: {
    one: 'Service occupé. {count} action sera envoyée sous peu.',
    many: 'Service occupé. {count} d’actions seront envoyées sous peu.',
    other: 'Service occupé. {count} actions seront envoyées sous peu.',
  },
  summary: { one: '{count} ami inscrit', other: '{count} amis inscrits' },
  summaryBought: { one: '{count} a acheté', other: '{count} ont acheté' },
  summaryEarned: '{amount} gagnés',
  testMode: 'Mode test',
  banner: 'Un ami vous invite : inscrivez-vous et recevez {give} de crédit',
  bannerPurchase: 'Un ami vous invite : recevez {give} de crédit à votre premier achat',
  codeLabel: 'Votre code à saisir au paiement',
  copyCode: 'Copier le code',
  codeCopied: 'Code copié',
  codeCopyFailed: 'Copie impossible : sélectionnez le code et copiez-le vous-même',
  dismiss: 'Fermer',
  loading: 'Chargement de vos récompenses de parrainage',
}
