// Small formatting helpers for the live views.

const pad = (n: number) => String(n).padStart(2, '0')

/** HH:MM:SS in this computer's time zone. */
export function clockTime(ms: number): string {
  const date = new Date(ms)
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
}

/** "in 4 s", "12 s ago". */
export function fromNow(ms: number, now = Date.now()): string {
  const seconds = Math.round((ms - now) / 1000)
  if (seconds === 0) return 'now'
  return seconds > 0 ? `in ${seconds} s` : `${-seconds} s ago`
}

/** How far the service's clock is ahead of this computer's: "+31 d 2 h", or "in step". */
export function offsetText(ms: number): string {
  const minutes = Math.round(ms / 60_000)
  if (Math.abs(minutes) < 1) return 'in step with this computer'
  const sign = minutes < 0 ? '−' : '+'
  const total = Math.abs(minutes)
  const days = Math.floor(total / 1440)
  const hours = Math.floor((total % 1440) / 60)
  const rest = total % 60
  const parts = [days ? `${days} d` : '', hours ? `${hours} h` : '', rest ? `${rest} min` : '']
  return `${sign}${parts.filter(Boolean).join(' ')} ahead of this computer`
}

export function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount)
  } catch {
    return `${amount} ${currency}`
  }
}

/** What issues a campaign's rewards, in the words the workbench uses. */
export const TRIGGER_LABELS = { signup: 'sign-up', purchase: 'first purchase' } as const

/** "rewards on the friend's first purchase", for a campaign's `rewardTrigger`. */
export function rewardsOn(trigger: string): string {
  const label = trigger === 'signup' || trigger === 'purchase' ? TRIGGER_LABELS[trigger] : trigger
  return `rewards on the friend’s ${label}`
}

export { messageOf as errorText } from '../../src/shared/errors.ts'
