import * as labels from '../launcher/labels.ts'
import type { Messages } from './messages.ts'

/** Portuguese (Brazil). */
export const ptBR: Messages = {
  headline: 'Dê {give}, ganhe {get}',
  referrerReward: 'Você ganha {get} de crédito',
  referredReward: 'Seu amigo ganha {give} de crédito',
  referrerRewardPurchase: 'Você ganha {get} de crédito quando seu amigo fizer a primeira compra',
  referredRewardPurchase: 'Seu amigo ganha {give} de crédito na primeira compra',
  linkLabel: 'Seu link de indicação',
  copy: 'Copiar link',
  copied: 'Link copiado',
  copyFailed: 'Não foi possível copiar: selecione o link e copie você mesmo',
  share: 'Compartilhar',
  shareVia: 'Compartilhar via {network}',
  emailSubject: 'Um presente para você: {give} de crédito',
  emailBody: 'Oi! Cadastre-se com meu link e ganhe {give} de crédito: {url}',
  xText: 'Ganhe {give} de crédito ao se cadastrar com meu link: {url}',
  whatsappText: 'Oi, cadastre-se com meu link e ganhe {give} de crédito: {url}',
  linkedinText: 'Recomendo: cadastre-se com meu link e ganhe {give} de crédito. {url}',
  nativeText: 'Cadastre-se com meu link e ganhe {give} de crédito.',
  emailBodyPurchase:
    'Oi! Cadastre-se com meu link e ganhe {give} de crédito na sua primeira compra: {url}',
  xTextPurchase:
    'Ganhe {give} de crédito na sua primeira compra ao se cadastrar com meu link: {url}',
  whatsappTextPurchase:
    'Oi, cadastre-se com meu link e ganhe {give} de crédito na sua primeira compra: {url}',
  linkedinTextPurchase:
    'Recomendo: cadastre-se com meu link e ganhe {give} de crédito na sua primeira compra. {url}',
  nativeTextPurchase: 'Cadastre-se com meu link e ganhe {give} de crédito na sua primeira compra.',
  qr: 'QR code',
  qrTitle: 'Escaneie para abrir seu link',
  qrAlt: 'QR code de {url}',
  downloadPng: 'Baixar PNG',
  downloadSvg: 'Baixar SVG',
  close: 'Fechar',
  referFriend: labels.ptBR,
  qrFailed: 'Não foi possível carregar o QR code.',
  signIn: 'Entre para ver seu link de indicação.',
  error: 'As recompensas de indicação não estão disponíveis agora.',
  offline: {
    one: 'Você está offline. {count} ação será enviada quando você voltar.',
    many: 'Você está offline. {count} de ações serão enviadas quando você voltar.',
    other: 'Você está offline. {count} ações serão enviadas quando você voltar.',
  },
  rateLimited: {
    one: 'Serviço ocupado. {count} ação será enviada em breve.',
    many: 'Serviço ocupado. {count} de ações serão enviadas em breve.',
    other: 'Serviço ocupado. {count} ações serão enviadas em breve.',
  },
  summary: { one: '{count} amigo entrou', other: '{count} amigos entraram' },
  summaryBought: { one: '{count} comprou', other: '{count} compraram' },
  summaryEarned: '{amount} ganhos',
  testMode: 'Modo de teste',
  banner: 'Um amigo convidou você: cadastre-se e ganhe {give} de crédito',
  bannerPurchase: 'Um amigo convidou você: ganhe {give} de crédito na sua primeira compra',
  codeLabel: 'Seu código para usar no pagamento',
  copyCode: 'Copiar código',
  codeCopied: 'Código copiado',
  codeCopyFailed: 'Não foi possível copiar: selecione o código e copie você mesmo',
  dismiss: 'Fechar',
  loading: 'Carregando suas recompensas de indicação',
}
