// What `diagnose()` reports: this install, as this visitor's browser sees it. Plain data only
// (strings, numbers, booleans, null, arrays and plain objects), so it goes into JSON, a support
// ticket or a test as it is. Filled in by the debug file (src/core/debug/diagnose.ts).
import type { PublicCampaign } from '../api/wire.ts'

/** One decision as the report has it: its code, when (ISO), and the facts it was made on. */
export interface ReportedDecision {
  code: string
  at: string
  [fact: string]: unknown
}

export interface Diagnosis {
  /** When the report was made (ISO, the device's clock). */
  at: string
  /** The build of each file the page runs: the script tag's loader and parts, or the package. */
  versions: Record<string, string>
  /** The key's mode, the page's host, and whether they go together (`key_mode_mismatch`). */
  key: { mode: 'test' | 'live'; host: string; matchesHost: boolean }
  /**
   * The service: its base URL, whether it answered a campaign request from this browser and in
   * how many milliseconds, its status, and why it did not answer (a decision code) if it did not.
   */
  service: {
    base: string
    reachable: boolean
    ms: number | null
    status: number | null
    problem: string | null
  }
  /** The campaign the widget shows (the one asked for, or the newest active one); null: none. */
  campaign: {
    id: string
    name: string
    active: boolean
    referrerReward: PublicCampaign['referrerReward']
    referredReward: PublicCampaign['referredReward']
    rewardTrigger: string
    windowDays: number
  } | null
  /** Where the widget keeps things: each written and read back just now. */
  storage: {
    /** `ok`, or `unavailable` (no localStorage, or it refused a write or a read). */
    localStorage: 'ok' | 'unavailable' | 'held until consent'
    /** `off` without a cookie domain; else `ok` or `refused` (cookie_domain_refused). */
    cookie: 'off' | 'ok' | 'refused'
    cookieDomain: string | null
  }
  /** Consent (required or not, and the visitor's state) and Global Privacy Control. */
  consent: {
    required: boolean
    state: 'not required' | 'given' | 'pending'
    gpc: boolean
    gpcHonored: boolean
  }
  /** The referral this browser holds, how old it is, how long it has left, and where it is kept. */
  referral: {
    code: string
    capturedAt: string
    ageDays: number
    windowLeftDays: number
    keptIn: Array<'storage' | 'memory' | 'cookie'>
  } | null
  /** Events waiting to be accepted, the connection, and when the next try is (ISO) if one waits. */
  queue: { waiting: number; connection: string; nextTry: string | null }
  /** The last 50 decisions, oldest first. */
  decisions: ReportedDecision[]
}
