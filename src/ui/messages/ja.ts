import type { Messages } from './messages.ts'

export const ja: Messages = {
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
