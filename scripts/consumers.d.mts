export class MissingPackageError extends Error {
  readonly package: string
}
/** A temporary app folder with the built package and `packages` installed; the caller removes it. */
export function consumerDir(packages?: Record<string, string>): string
/** Builds `code` as an app's entry; `packages` maps installed names to this repository's copies. */
export function buildConsumer(
  code: string,
  packages?: Record<string, string>,
): Promise<{ js: string; gzip: number }>
export const APPS: Record<string, unknown>
export function consumerCosts(): Promise<Record<string, Record<string, number>>>
