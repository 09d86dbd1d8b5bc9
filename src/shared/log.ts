// Console messages carry one prefix, and each distinct warning shows once per page.
const PREFIX = '[referral]'
const shown = new Set<string>()

export function warnOnce(message: string, ...details: unknown[]) {
  if (shown.has(message)) return
  shown.add(message)
  console.warn(`${PREFIX} ${message}`, ...details)
}

export function warn(message: string, ...details: unknown[]) {
  console.warn(`${PREFIX} ${message}`, ...details)
}

export function error(message: string, ...details: unknown[]) {
  console.error(`${PREFIX} ${message}`, ...details)
}

/** For tests: lets a once-only warning show again. */
export function resetWarnings() {
  shown.clear()
}

export function info(message: string) {
  console.info(`${PREFIX} ${message}`)
}
