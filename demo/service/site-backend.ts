// The shop's backend, played by the dev server for the demo page: it records a purchase as a
// site's server does, with recordPurchase of referral-widget/server and the organization's secret
// key, so the page never holds one. The call reaches /v1/events in-process but as any backend's
// request would: authenticated, rate-limited, in the request log, and answered by an armed fault.
import * as z from 'zod/mini'
import {
  type PurchaseResult,
  RecordPurchaseError,
  recordPurchase,
  ServerConfigError,
} from '../../src/server.ts'
import { invalid, ServiceError } from './errors.ts'
import type { AppEnv } from './http.ts'

/** Types only: recordPurchase checks the values, and its words say what is wrong. */
export const DemoPurchase = z.strictObject({
  userId: z.string(),
  orderId: z.string(),
  amount: z.number(),
  currency: z.string(),
})
export type DemoPurchase = z.infer<typeof DemoPurchase>

/** The service's own routes, as the backend's fetch reaches them. */
export type InProcess = (
  url: string,
  init: RequestInit,
  env: AppEnv['Bindings'],
) => Response | Promise<Response>

/**
 * The service's verdict on the purchase (`accepted`, `duplicate`, `rejected`). A wrong value is
 * a 400 naming the field; no verdict (`timeout`, `refused`, `unsupported`) is a 502 whose code
 * names the reason and whose message is recordPurchase's own.
 */
export async function recordSitePurchase(args: {
  inProcess: InProcess
  /** Where the backend reaches the service: the address the demo page called. */
  apiBase: string
  secretKey: string
  purchase: DemoPurchase
  env: AppEnv['Bindings']
}): Promise<PurchaseResult> {
  const { inProcess, env } = args
  try {
    return await recordPurchase({
      ...args.purchase,
      secretKey: args.secretKey,
      apiBase: args.apiBase,
      fetch: async (url, init) => inProcess(url, init, env),
    })
  } catch (error) {
    if (error instanceof ServerConfigError) {
      throw invalid('parameter_invalid', error.message, error.option)
    }
    if (error instanceof RecordPurchaseError) {
      throw new ServiceError(502, 'api_error', `record_purchase_${error.reason}`, error.message)
    }
    throw error
  }
}
