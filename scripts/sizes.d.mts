export interface Size {
  raw: number
  gzip: number
  brotli: number
}
export const ARTIFACTS: Record<string, string>
export const BUDGETS: { trackingOnly: number; withPanel: number; qrOnUse: number }
export function measure(file: string): Size
export function sizes(): {
  files: Record<string, Size>
  totals: {
    trackingOnly: { gzip: number; brotli: number }
    withPanel: { gzip: number; brotli: number }
    qrOnUse: { gzip: number; brotli: number }
  }
}
