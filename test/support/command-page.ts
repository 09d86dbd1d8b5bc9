// The page the tests of window.Referral (src/embed/commands-*.test.ts) run on: the documented
// stub as a site pastes it, what the script does on load, and for each test a fresh world, fake
// time from a fixed instant and quiet consoles.
import { afterEach, beforeEach, type MockInstance, vi } from 'vitest'
import type { TrackedEvent } from '../../demo/service/schemas.ts'
import { type CommandApi, createCommandApi, replay } from '../../src/embed/commands.ts'
import { resetWarnings } from '../../src/shared/log.ts'
import type { Tab as Core, World } from './delivery-world.ts'
import { createWorld } from './harness.ts'

const START = Date.UTC(2026, 0, 15, 12)

export type Stub = ((...args: unknown[]) => void) & { q?: IArguments[] }
type Page = { Referral?: Stub | CommandApi | undefined }

export const page = window as unknown as Page

// The test running's world, console.error spy and loaded cores (see useCommandPage).
export let world: World
export let errorSpy: MockInstance<typeof console.error>
export let cores: Core[] = []

/** Registers the set-up for the file's tests; `world`, `errorSpy` and `cores` are fresh in each. */
export function useCommandPage() {
  beforeEach(() => {
    vi.useFakeTimers({ now: START })
    resetWarnings()
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    errorSpy = vi.spyOn(console, 'error').mockImplementation(() => {})
    world = createWorld()
    cores = []
    page.Referral = undefined
  })

  afterEach(() => {
    for (const core of cores) core.destroy()
    page.Referral = undefined
    vi.useRealTimers()
    vi.restoreAllMocks()
  })
}

/**
 * The documented stub, as a site pastes it:
 * window.Referral=window.Referral||function(){(Referral.q=Referral.q||[]).push(arguments)}
 */
export function installStub(): (method: string, ...args: unknown[]) => void {
  page.Referral =
    page.Referral ||
    function (this: unknown) {
      const stub = page.Referral as Stub
      stub.q = stub.q || []
      // biome-ignore lint/complexity/noArguments: the documented stub queues `arguments` objects
      stub.q.push(arguments)
    }
  return page.Referral as (method: string, ...args: unknown[]) => void
}

/** What the script does on load: a core, the command API in place of the stub, the replay. */
export function load(beforeReplay?: (core: Core) => void) {
  const core = world.tab()
  cores.push(core)
  beforeReplay?.(core)
  const queued = (page.Referral as Stub | undefined)?.q
  const api = createCommandApi(core)
  page.Referral = api
  replay(api, queued)
  return { core, api }
}

/** Events as the core announced them: type, user and code. */
export const summary = (event: TrackedEvent) => [
  event.type,
  event.userId ?? null,
  event.code ?? null,
]

export const referralErrors = () =>
  errorSpy.mock.calls.map((call) => String(call[0])).filter((text) => text.includes('[referral]'))

export async function linkCode(referrerId = 'alice'): Promise<string> {
  return world.makeLink(referrerId)
}
