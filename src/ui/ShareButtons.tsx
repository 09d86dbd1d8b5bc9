// The share row under the link: the native share sheet, the QR code control, and a link per
// network, each with its channel's own text.
import type { Messages } from './messages/index.ts'
import { message } from './messages/index.ts'
import { QrControl } from './QrControl.tsx'

/** The link as shared on one channel: tagged for the site's analytics when the host asks. */
export function channelUrl(url: string, channel: string, utm: boolean): string {
  if (!utm) return url
  const tagged = new URL(url)
  tagged.searchParams.set('utm_source', channel)
  tagged.searchParams.set('utm_medium', 'referral')
  return tagged.toString()
}

/** A channel's text with the rewards and the link; the link goes at the end when not placed. */
function shareText(template: string, values: Record<string, string>, url: string): string {
  return template.includes('{url}')
    ? message(template, { ...values, url })
    : `${message(template, values)} ${url}`
}

/** The channel texts that say what earns the reward: a purchase campaign has its own of each. */
type RewardText = 'emailBody' | 'xText' | 'whatsappText' | 'linkedinText' | 'nativeText'

export function ShareButtons(props: {
  url: string
  rewards: Record<'give' | 'get', string>
  messages: Messages
  utm: boolean
  /** The friend's first purchase earns the rewards (extension), not their sign-up. */
  purchase: boolean
}) {
  const { url, rewards, messages, utm, purchase } = props
  const say = (key: RewardText) => messages[purchase ? (`${key}Purchase` as const) : key]
  const e = encodeURIComponent
  const via = (channel: string) => channelUrl(url, channel, utm)
  const subject = message(messages.emailSubject, rewards)
  const networks: Array<[string, string, string]> = [
    [
      'email',
      'Email',
      `mailto:?subject=${e(subject)}&body=${e(shareText(say('emailBody'), rewards, via('email')))}`,
    ],
    ['x', 'X', `https://x.com/intent/post?text=${e(shareText(say('xText'), rewards, via('x')))}`],
    [
      'whatsapp',
      'WhatsApp',
      `https://wa.me/?text=${e(shareText(say('whatsappText'), rewards, via('whatsapp')))}`,
    ],
    [
      'linkedin',
      'LinkedIn',
      `https://www.linkedin.com/feed/?shareActive=true&text=${e(shareText(say('linkedinText'), rewards, via('linkedin')))}`,
    ],
  ]
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function'
  const nativeShare = () => {
    const nativeUrl = via('native')
    // The share sheet takes the link on its own unless the text places it.
    const template = say('nativeText')
    const placed = template.includes('{url}')
    const text = message(template, { ...rewards, url: nativeUrl })
    navigator
      .share(placed ? { title: subject, text } : { title: subject, text, url: nativeUrl })
      .catch(() => {})
  }
  return (
    <div class="share" data-part="share">
      {canShare && (
        <button type="button" data-network="native" onClick={nativeShare}>
          {messages.share}
        </button>
      )}
      <QrControl url={via('qr')} messages={messages} />
      {networks.map(([channel, network, href]) => (
        <a
          key={channel}
          href={href}
          data-network={channel}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={message(messages.shareVia, { network })}
        >
          {network}
        </a>
      ))}
    </div>
  )
}
