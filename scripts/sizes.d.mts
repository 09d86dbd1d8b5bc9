export interface Size {
  raw: number
  gzip: number
  brotli: number
}
export type Page =
  | 'quiet'
  | 'arrival'
  | 'withPanel'
  | 'linkOnly'
  | 'arrivalWithBanner'
  | 'arrivalWithCookie'
  | 'arrivalWithOutbound'
  | 'qrOnUse'
export const ARTIFACTS: Record<string, string>
export const PAGES: Record<Page, { label: string; files: string[] }>
export const BUDGETS: Record<Page, number>
export const CEILINGS: Record<Page, number>
export function measure(file: string): Size
export function sizes(): {
  files: Record<string, Size>
  totals: Record<Page, { gzip: number; brotli: number }>
}
