import * as labels from '../launcher/labels.ts'
import type { Messages } from './messages.ts'

/** Japanese. */
export const ja: Messages = {
  headline: '友だちに{give}、あなたに{get}',
  referrerReward: 'あなたは{get}分のクレジットを獲得',
  referredReward: '友だちは{give}分のクレジットを獲得',
  referrerRewardPurchase: '友だちの初回購入で、あなたは{get}分のクレジットを獲得',
  referredRewardPurchase: '友だちは初回購入時に{give}分のクレジットを獲得',
  linkLabel: 'あなたの紹介リンク',
  copy: 'リンクをコピー',
  copied: 'リンクをコピーしました',
  copyFailed: 'コピーできませんでした。リンクを選択してコピーしてください',
  share: '共有',
  shareVia: '{network}で共有',
  emailSubject: 'プレゼント：{give}分のクレジット',
  emailBody: 'こんにちは！私のリンクから登録すると{give}分のクレジットがもらえます：{url}',
  xText: 'このリンクから登録すると{give}分のクレジットがもらえます {url}',
  whatsappText: '私のリンクから登録すると{give}分のクレジットがもらえるよ：{url}',
  linkedinText: 'おすすめです。私のリンクから登録すると{give}分のクレジットがもらえます。{url}',
  nativeText: '私のリンクから登録すると{give}分のクレジットがもらえます。',
  emailBodyPurchase:
    'こんにちは！私のリンクから登録して初回購入すると{give}分のクレジットがもらえます：{url}',
  xTextPurchase: 'このリンクから登録して初回購入すると{give}分のクレジットがもらえます {url}',
  whatsappTextPurchase:
    '私のリンクから登録して初回購入すると{give}分のクレジットがもらえるよ：{url}',
  linkedinTextPurchase:
    'おすすめです。私のリンクから登録して初回購入すると{give}分のクレジットがもらえます。{url}',
  nativeTextPurchase: '私のリンクから登録して初回購入すると{give}分のクレジットがもらえます。',
  qr: 'QRコード',
  qrTitle: 'スキャンしてリンクを開く',
  qrAlt: '{url} のQRコード',
  downloadPng: 'PNGをダウンロード',
  downloadSvg: 'SVGをダウンロード',
  close: '閉じる',
  referFriend: labels.ja,
  qrFailed: 'QRコードを読み込めませんでした。',
  signIn: 'ログインすると紹介リンクが表示されます。',
  error: '現在、紹介特典はご利用いただけません。',
  offline: {
    other: 'オフラインです。{count}件の操作はオンラインに戻ると送信されます。',
  },
  rateLimited: {
    other: '混み合っています。{count}件の操作はまもなく送信されます。',
  },
  summary: { other: '{count}人の友達が参加しました' },
  summaryBought: { other: '{count}人が購入しました' },
  summaryEarned: '{amount}を獲得',
  testMode: 'テストモード',
  banner: '友だちからの招待です：登録すると{give}分のクレジットがもらえます',
  bannerPurchase: '友だちからの招待です：初回購入で{give}分のクレジットがもらえます',
  codeLabel: 'お支払い時に入力するコード',
  copyCode: 'コードをコピー',
  codeCopied: 'コードをコピーしました',
  codeCopyFailed: 'コピーできませんでした。コードを選択してコピーしてください',
  dismiss: '閉じる',
  loading: '紹介特典を読み込み中',
}
