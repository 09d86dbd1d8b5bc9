import type { Messages } from './messages.ts'

export const fr: Messages = {
  headline: 'Offrez {give}, recevez {get}',
  referrerReward: 'Vous recevez {get} de crédit',
  referredReward: 'Votre ami reçoit {give} de crédit',
  linkLabel: 'Votre lien de parrainage',
  copy: 'Copier le lien',
  copied: 'Lien copié',
  copyFailed: 'Copie impossible : sélectionnez le lien et copiez-le vous-même',
  share: 'Partager',
  shareVia: 'Partager via {network}',
  shareSubject: 'Un cadeau pour vous : {give} de crédit',
  shareText: 'Inscrivez-vous avec mon lien et recevez {give} de crédit.',
  signIn: 'Connectez-vous pour obtenir votre lien de parrainage.',
  error: 'Les récompenses de parrainage ne sont pas disponibles pour le moment.',
  offline: 'Vous êtes hors ligne. Votre activité sera envoyée à votre retour.',
  rateLimited: 'Service occupé. Votre activité sera envoyée sous peu.',
  testMode: 'Mode test',
  banner: 'Un ami vous invite : inscrivez-vous et recevez {give} de crédit',
  dismiss: 'Fermer',
  loading: 'Chargement de vos récompenses de parrainage',
}
