import type { Messages } from './messages.ts'

export const ar: Messages = {
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
