import * as labels from '../launcher/labels.ts'
import type { Messages } from './messages.ts'

/** Korean. */
export const ko: Messages = {
  headline: '친구에게 {give}, 나에게 {get}',
  referrerReward: '내가 받는 적립금 {get}',
  referredReward: '친구가 받는 적립금 {give}',
  referrerRewardPurchase: '친구 첫 구매 시 내가 받는 적립금 {get}',
  referredRewardPurchase: '친구가 첫 구매 시 받는 적립금 {give}',
  linkLabel: '내 추천 링크',
  copy: '링크 복사',
  copied: '링크를 복사했습니다',
  copyFailed: '복사하지 못했습니다. 링크를 선택해 직접 복사하세요',
  share: '공유',
  shareVia: '{network}(으)로 공유',
  emailSubject: '선물이 도착했어요: 적립금 {give}',
  emailBody: '안녕하세요! 제 링크로 가입하면 적립금 {give}을(를) 받을 수 있어요: {url}',
  xText: '제 링크로 가입하고 적립금 {give} 받으세요: {url}',
  whatsappText: '내 링크로 가입하면 적립금 {give} 받을 수 있어: {url}',
  linkedinText: '추천합니다. 제 링크로 가입하면 적립금 {give}을(를) 받을 수 있습니다. {url}',
  nativeText: '제 링크로 가입하고 적립금 {give} 받으세요.',
  emailBodyPurchase:
    '안녕하세요! 제 링크로 가입하면 첫 구매 시 적립금 {give}을(를) 받을 수 있어요: {url}',
  xTextPurchase: '제 링크로 가입하고 첫 구매 시 적립금 {give} 받으세요: {url}',
  whatsappTextPurchase: '내 링크로 가입하면 첫 구매 때 적립금 {give} 받을 수 있어: {url}',
  linkedinTextPurchase:
    '추천합니다. 제 링크로 가입하면 첫 구매 시 적립금 {give}을(를) 받을 수 있습니다. {url}',
  nativeTextPurchase: '제 링크로 가입하고 첫 구매 시 적립금 {give} 받으세요.',
  qr: 'QR 코드',
  qrTitle: '스캔하여 링크 열기',
  qrAlt: '{url}의 QR 코드',
  downloadPng: 'PNG 다운로드',
  downloadSvg: 'SVG 다운로드',
  close: '닫기',
  referFriend: labels.ko,
  qrFailed: 'QR 코드를 불러오지 못했습니다.',
  signIn: '로그인하면 추천 링크를 받을 수 있습니다.',
  error: '지금은 추천 보상을 이용할 수 없습니다.',
  offline: {
    other: '오프라인 상태입니다. 다시 연결되면 {count}건의 활동이 전송됩니다.',
  },
  rateLimited: {
    other: '요청이 많습니다. {count}건의 활동이 곧 전송됩니다.',
  },
  summary: { other: '친구 {count}명이 가입했어요' },
  summaryBought: { other: '{count}명이 구매했어요' },
  summaryEarned: '{amount} 획득',
  testMode: '테스트 모드',
  banner: '친구가 초대했어요: 가입하고 적립금 {give}을(를) 받으세요',
  bannerPurchase: '친구가 초대했어요: 첫 구매 시 적립금 {give}을(를) 받으세요',
  dismiss: '닫기',
  loading: '추천 보상을 불러오는 중',
}
