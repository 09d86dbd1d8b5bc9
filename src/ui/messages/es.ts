import * as labels from '../launcher/labels.ts'
import type { Messages } from './messages.ts'

/** Spanish. */
export const es: Messages = {
  headline: 'Regala {give}, recibe {get}',
  referrerReward: 'Recibes {get} de crédito',
  referredReward: 'Tu amigo recibe {give} de crédito',
  referrerRewardPurchase: 'Recibes {get} de crédito cuando tu amigo haga su primera compra',
  referredRewardPurchase: 'Tu amigo recibe {give} de crédito en su primera compra',
  linkLabel: 'Tu enlace de referido',
  copy: 'Copiar enlace',
  copied: 'Enlace copiado',
  copyFailed: 'No se pudo copiar: selecciona el enlace y cópialo tú',
  share: 'Compartir',
  shareVia: 'Compartir por {network}',
  emailSubject: 'Un regalo para ti: {give} de crédito',
  emailBody: '¡Hola! Regístrate con mi enlace y recibe {give} de crédito: {url}',
  xText: 'Recibe {give} de crédito al registrarte con mi enlace: {url}',
  whatsappText: 'Oye, regístrate con mi enlace y recibe {give} de crédito: {url}',
  linkedinText: 'Te lo recomiendo: regístrate con mi enlace y recibe {give} de crédito. {url}',
  nativeText: 'Regístrate con mi enlace y recibe {give} de crédito.',
  emailBodyPurchase:
    '¡Hola! Regístrate con mi enlace y recibe {give} de crédito en tu primera compra: {url}',
  xTextPurchase:
    'Recibe {give} de crédito en tu primera compra al registrarte con mi enlace: {url}',
  whatsappTextPurchase:
    'Oye, regístrate con mi enlace y recibe {give} de crédito en tu primera compra: {url}',
  linkedinTextPurchase:
    'Te lo recomiendo: regístrate con mi enlace y recibe {give} de crédito en tu primera compra. {url}',
  nativeTextPurchase: 'Regístrate con mi enlace y recibe {give} de crédito en tu primera compra.',
  qr: 'Código QR',
  qrTitle: 'Escanea para abrir tu enlace',
  qrAlt: 'Código QR de {url}',
  downloadPng: 'Descargar PNG',
  downloadSvg: 'Descargar SVG',
  close: 'Cerrar',
  referFriend: labels.es,
  qrFailed: 'No se pudo cargar el código QR.',
  signIn: 'Inicia sesión para obtener tu enlace de referido.',
  error: 'Las recompensas por referidos no están disponibles ahora.',
  offline: {
    one: 'Sin conexión. {count} acción se enviará cuando vuelvas.',
    many: 'Sin conexión. {count} de acciones se enviarán cuando vuelvas.',
    other: 'Sin conexión. {count} acciones se enviarán cuando vuelvas.',
  },
  rateLimited: {
    one: 'Ocupado ahora. {count} acción se enviará en breve.',
    many: 'Ocupado ahora. {count} de acciones se enviarán en breve.',
    other: 'Ocupado ahora. {count} acciones se enviarán en breve.',
  },
  summary: { one: '{count} amigo se unió', other: '{count} amigos se unieron' },
  summaryBought: { one: '{count} compró', other: '{count} compraron' },
  summaryEarned: '{amount} ganados',
  testMode: 'Modo de prueba',
  banner: 'Un amigo te invitó: regístrate y recibe {give} de crédito',
  bannerPurchase: 'Un amigo te invitó: recibe {give} de crédito en tu primera compra',
  codeLabel: 'Tu código para usar al pagar',
  copyCode: 'Copiar código',
  codeCopied: 'Código copiado',
  codeCopyFailed: 'No se pudo copiar: selecciona el código y cópialo tú',
  dismiss: 'Cerrar',
  loading: 'Cargando tus recompensas por referidos',
}
