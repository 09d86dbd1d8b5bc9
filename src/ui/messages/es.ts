import type { Messages } from './messages.ts'

export const es: Messages = {
  headline: 'Regala {give}, recibe {get}',
  referrerReward: 'Recibes {get} de crédito',
  referredReward: 'Tu amigo recibe {give} de crédito',
  linkLabel: 'Tu enlace de referido',
  copy: 'Copiar enlace',
  copied: 'Enlace copiado',
  copyFailed: 'No se pudo copiar: selecciona el enlace y cópialo tú',
  share: 'Compartir',
  shareVia: 'Compartir por {network}',
  shareSubject: 'Un regalo para ti: {give} de crédito',
  shareText: 'Regístrate con mi enlace y recibe {give} de crédito.',
  signIn: 'Inicia sesión para obtener tu enlace de referido.',
  error: 'Las recompensas por referidos no están disponibles ahora.',
  offline: 'Sin conexión. Tu actividad se enviará cuando vuelvas.',
  rateLimited: 'Ocupado ahora. Tu actividad se enviará en breve.',
  testMode: 'Modo de prueba',
  banner: 'Un amigo te invitó: regístrate y recibe {give} de crédito',
  dismiss: 'Cerrar',
  loading: 'Cargando tus recompensas por referidos',
}
