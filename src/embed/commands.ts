// window.Referral: callable as Referral('method', ...args), with the methods on it too. The loader
// installs it at once. Until the tracking part runs, a call is answered by the loader where the
// answer is known without the part (`early`); every other call waits, in order, and runs when the
// part attaches its methods (a call that returns a promise gets one at once, settled then). Calls
// queued by the documented stub before the script loaded are replayed in order.
import { METHODS, type Referral } from '../core/types.ts'
import { messageOf } from '../shared/errors.ts'
import { error as logError } from '../shared/log.ts'

type Method = (...args: unknown[]) => unknown
export type Methods = Record<string, Method>
export type CommandApi = ((method: string, ...args: unknown[]) => unknown) & Methods

/** What `early` returns for a call it cannot answer: it waits for the tracking part. */
export const WAIT = Symbol('wait')
/** The methods whose result is a promise: a waiting call gets one at once. */
export const PROMISED = ['getLink', 'flush', 'diagnose', 'checkoutReference']

export interface CommandFunction {
  api: CommandApi
  /**
   * Methods (the tracking part's, later the later part's): the calls that waited for them run now,
   * in order, and every later call goes there.
   */
  attach(methods: Methods): void
  /**
   * The tracking part could not run (its file failed to load, or it is of another build): each
   * promise a waiting call holds settles now rather than never. flush() resolves (what the loader
   * kept waits in storage for a page that has the part); getLink() and diagnose() reject with
   * `failure`. The other calls go on waiting for the next try.
   */
  refuse(failure: Error): void
  /**
   * Tells the listeners added before the tracking part ran (`on(name, fn)`, waiting for it) what
   * the loader itself did: an event it dropped. Later, the part's own emitter tells them.
   */
  announce(name: string, payload: unknown): void
  /**
   * Hears every call before it runs (set by the launcher file: a user identified or forgotten, this
   * browser's own sign-up).
   */
  hear?: ((name: string, args: unknown[]) => void) | undefined
}

type Waiting = { name: string; args: unknown[]; settle?: (result?: unknown) => void; off?: boolean }

/**
 * The command function. `early(name, args)`: the loader's own answer, or WAIT (it asks for the
 * tracking part then). Without `early`, every method runs at once on the methods attached.
 */
export function createCommandFunction(
  early?: (name: string, args: unknown[]) => unknown,
): CommandFunction {
  let methods: Methods | undefined
  const waiting: Waiting[] = []

  const run = (name: string, args: unknown[]) => {
    try {
      return (methods as Methods)[name]?.(...args)
    } catch (failure) {
      // A host's bad call is reported, never thrown into the host's code.
      logError(messageOf(failure))
    }
  }

  const call = (name: string, args: unknown[]): unknown => {
    if (!METHODS.includes(name as (typeof METHODS)[number])) {
      logError(`Referral(${JSON.stringify(name)}) is not a method. Methods: ${METHODS.join(', ')}.`)
      return
    }
    commands.hear?.(name, args)
    if (methods?.[name]) return run(name, args)
    // The loader answers what it can until the tracking part is there; then a call waits for
    // its method only (identify, until the later part comes).
    const answer = early && !methods ? early(name, args) : WAIT
    if (answer !== WAIT) return answer
    const call: Waiting = { name, args }
    waiting.push(call)
    // A listener added meanwhile can be removed meanwhile; later, from the part's own.
    if (name === 'on')
      return () => {
        if (call.settle) call.settle()
        else call.off = true
      }
    if (PROMISED.includes(name)) return new Promise((resolve) => (call.settle = resolve))
  }

  const api = ((name: string, ...args: unknown[]) => call(String(name), args)) as CommandApi
  for (const name of METHODS) api[name] = (...args: unknown[]) => call(name, args)

  const commands: CommandFunction = {
    api,
    attach(attached) {
      methods = { ...methods, ...attached }
      for (const waited of waiting.splice(0)) {
        if (waited.off) continue
        if (!methods[waited.name]) {
          waiting.push(waited) // its method comes later (in order with the others that wait)
          continue
        }
        const result = run(waited.name, waited.args)
        if (waited.name === 'on') waited.settle = result as () => void
        else waited.settle?.(result)
      }
    },
    announce(name, payload) {
      for (const { name: method, args, off } of waiting)
        if (method === 'on' && !off && args[0] === name && typeof args[1] === 'function')
          try {
            args[1](payload)
          } catch (failure) {
            logError(messageOf(failure)) // the page's listener, never thrown back into its call
          }
    },
    refuse(failure) {
      for (const waited of waiting.splice(0)) {
        if (!PROMISED.includes(waited.name)) waiting.push(waited)
        else waited.settle?.(waited.name === 'flush' ? undefined : Promise.reject(failure))
      }
    },
  }
  return commands
}

/** The methods of the command API, taken from a core. */
export const methodsOf = (referral: Pick<Referral, (typeof METHODS)[number]>): Methods =>
  Object.fromEntries(METHODS.map((name) => [name, referral[name] as Method]))

/** The command API over a core, every call going to it at once (no loader before it). */
export function createCommandApi(referral: Pick<Referral, (typeof METHODS)[number]>): CommandApi {
  const command = createCommandFunction()
  command.attach(methodsOf(referral))
  return command.api
}

/** Replays the stub's queued calls, each an `arguments` object of (method, ...args). */
export function replay(api: CommandApi, queued: unknown) {
  if (!Array.isArray(queued)) return
  for (const call of queued) {
    const args = Array.from(call as ArrayLike<unknown>)
    api(String(args[0]), ...args.slice(1))
  }
}

/**
 * The command function goes to `window[name]` (`Referral`, or data-global's name), replacing only
 * what the widget owns there: nothing, or the documented stub with the calls it queued. A global
 * of the page's own is left alone: false (the checks file says what to do, attribute-checks.ts).
 */
export function install(api: CommandApi, name: string): boolean {
  const globals = window as unknown as Record<string, unknown>
  const found = globals[name]
  if (found !== undefined && !isStub(found)) return false
  globals[name] = api
  replay(api, (found as { q?: unknown } | undefined)?.q)
  return true
}

/** The documented stub: a function that queues its calls in `q` (and has queued none yet). */
function isStub(value: unknown): boolean {
  if (typeof value !== 'function') return false
  if (Array.isArray((value as { q?: unknown }).q)) return true
  try {
    return /\.q\s*=/.test(Function.prototype.toString.call(value))
  } catch {
    return false
  }
}
