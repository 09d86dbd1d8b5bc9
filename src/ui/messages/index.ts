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

const en: Messages = {
  headline: 'Give {give}, get {get}',
  referrerReward: 'You get {get} credit',
  referredReward: 'Your friend gets {give} credit',
  linkLabel: 'Your referral link',
  copy: 'Copy link',
  copied: 'Link copied',
  copyFailed: 'Could not copy: select the link and copy it yourself',
  share: 'Share',
  shareVia: 'Share via {network}',
  shareSubject: 'A gift for you: {give} credit',
  shareText: 'Sign up with my link and get {give} credit.',
  signIn: 'Sign in to get your referral link.',
  error: 'Referral rewards are not available right now.',
  offline: 'You are offline. Your activity will be sent when you are back.',
  rateLimited: 'Busy right now. Your activity will be sent shortly.',
  testMode: 'Test mode',
  banner: 'A friend invited you: sign up and get {give} credit',
  dismiss: 'Dismiss',
  loading: 'Loading your referral rewards',
}

const de: Messages = {
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

const fr: Messages = {
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

const es: Messages = {
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

const ja: Messages = {
  headline: '友だちに{give}、あなたに{get}',
  referrerReward: 'あなたは{get}分のクレジットを獲得',
  referredReward: '友だちは{give}分のクレジットを獲得',
  linkLabel: 'あなたの紹介リンク',
  copy: 'リンクをコピー',
  copied: 'リンクをコピーしました',
  copyFailed: 'コピーできませんでした。リンクを選択してコピーしてください',
  share: '共有',
  shareVia: '{network}で共有',
  shareSubject: 'プレゼント：{give}分のクレジット',
  shareText: '私のリンクから登録すると{give}分のクレジットがもらえます。',
  signIn: 'ログインすると紹介リンクが表示されます。',
  error: '現在、紹介特典はご利用いただけません。',
  offline: 'オフラインです。オンラインに戻ると送信されます。',
  rateLimited: '混み合っています。まもなく送信されます。',
  testMode: 'テストモード',
  banner: '友だちからの招待です：登録すると{give}分のクレジットがもらえます',
  dismiss: '閉じる',
  loading: '紹介特典を読み込み中',
}

const ar: Messages = {
  headline: 'امنح {give} واحصل على {get}',
  referrerReward: 'تحصل على رصيد بقيمة {get}',
  referredReward: 'يحصل صديقك على رصيد بقيمة {give}',
  linkLabel: 'رابط الإحالة الخاص بك',
  copy: 'نسخ الرابط',
  copied: 'تم نسخ الرابط',
  copyFailed: 'تعذّر النسخ: حدّد الرابط وانسخه بنفسك',
  share: 'مشاركة',
  shareVia: 'مشاركة عبر {network}',
  shareSubject: 'هدية لك: رصيد بقيمة {give}',
  shareText: 'سجّل عبر رابطي واحصل على رصيد بقيمة {give}.',
  signIn: 'سجّل الدخول للحصول على رابط الإحالة.',
  error: 'مكافآت الإحالة غير متاحة حاليًا.',
  offline: 'أنت غير متصل. سيتم إرسال نشاطك عند عودتك.',
  rateLimited: 'الخدمة مشغولة الآن. سيتم إرسال نشاطك قريبًا.',
  testMode: 'وضع الاختبار',
  banner: 'دعاك صديق: سجّل واحصل على رصيد بقيمة {give}',
  dismiss: 'إغلاق',
  loading: 'جارٍ تحميل مكافآت الإحالة',
}

export const BUILT_IN: Record<string, Messages> = { en, de, fr, es, ja, ar }

const RTL = new Set(['ar', 'he', 'fa', 'ur'])

const language = (locale: string) => locale.toLowerCase().split(/[-_]/)[0] ?? 'en'

/** The built-in messages for a locale (English when unknown), with the host's overrides. */
export function messagesFor(locale: string, overrides: Partial<Messages> = {}): Messages {
  const base = BUILT_IN[language(locale)] ?? en
  const merged = { ...base }
  for (const key of Object.keys(base) as Array<keyof Messages>) {
    const value = overrides[key]
    if (typeof value === 'string') merged[key] = value
  }
  return merged
}

export const isRightToLeft = (locale: string) => RTL.has(language(locale))

/** Fills `{name}` placeholders; unknown ones stay as written. */
export function message(template: string, values: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)
}
