// window.Referral: callable as Referral('method', ...args), with the methods on it too.
// Calls queued by the documented stub before the script loaded are replayed in order.
import { METHODS, type Referral } from '../core/types.ts'
import { messageOf } from '../shared/errors.ts'
import { error as logError } from '../shared/log.ts'

type Method = (...args: never[]) => unknown

export type CommandApi = ((method: string, ...args: unknown[]) => unknown) & Record<string, Method>

/** The command API over the core: every method of METHODS, and nothing else. */
export function createCommandApi(referral: Pick<Referral, (typeof METHODS)[number]>): CommandApi {
  const methods: Record<string, Method> = {}
  for (const name of METHODS) methods[name] = referral[name] as Method
  const api = ((method: string, ...args: unknown[]) => {
    const fn =
      typeof method === 'string' && Object.hasOwn(methods, method) ? methods[method] : undefined
    if (!fn) {
      logError(
        `Referral(${JSON.stringify(method)}) is not a method. Methods: ${Object.keys(methods).join(', ')}.`,
      )
      return undefined
    }
    try {
      return (fn as (...args: unknown[]) => unknown)(...args)
    } catch (failure) {
      // A host's bad call is reported, never thrown into the host's code.
      logError(messageOf(failure))
      return undefined
    }
  }) as CommandApi
  Object.assign(api, methods)
  return api
}

/** Replays the stub's queued calls, each an `arguments` object of (method, ...args). */
export function replay(api: CommandApi, queued: unknown) {
  if (!Array.isArray(queued)) return
  for (const call of queued) {
    const args = Array.from(call as ArrayLike<unknown>)
    api(String(args[0]), ...args.slice(1))
  }
}
