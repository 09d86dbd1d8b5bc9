import type { Messages } from './messages.ts'

/** Simplified Chinese. */
export const zhCN: Messages = {
  headline: '送好友{give}，你得{get}',
  referrerReward: '你将获得{get}额度',
  referredReward: '好友将获得{give}额度',
  linkLabel: '你的推荐链接',
  copy: '复制链接',
  copied: '链接已复制',
  copyFailed: '无法复制：请选中链接后手动复制',
  share: '分享',
  shareVia: '通过{network}分享',
  emailSubject: '送你一份礼物：{give}额度',
  emailBody: '你好！通过我的链接注册即可获得{give}额度：{url}',
  xText: '用我的链接注册，立得{give}额度：{url}',
  whatsappText: '嗨，用我的链接注册就能拿到{give}额度：{url}',
  linkedinText: '推荐给你：通过我的链接注册即可获得{give}额度。{url}',
  nativeText: '通过我的链接注册即可获得{give}额度。',
  qr: '二维码',
  qrTitle: '扫码打开你的链接',
  qrAlt: '{url} 的二维码',
  downloadPng: '下载 PNG',
  downloadSvg: '下载 SVG',
  close: '关闭',
  qrFailed: '二维码加载失败。',
  signIn: '登录后即可获取你的推荐链接。',
  error: '推荐奖励暂时不可用。',
  offline: {
    other: '你已离线。{count} 项操作将在恢复联网后发送。',
  },
  rateLimited: {
    other: '服务繁忙。{count} 项操作将稍后发送。',
  },
  testMode: '测试模式',
  banner: '好友邀请你：注册即可获得{give}额度',
  dismiss: '关闭',
  loading: '正在加载推荐奖励',
}
