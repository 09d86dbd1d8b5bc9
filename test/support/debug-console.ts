// The console as debug mode's tests read it: every line the widget prints, captured (and kept off
// the test's output), and `printed(code)`, the `[referral] <code>:` line once it has come (the
// debug file comes with a dynamic import, so a line may follow a task or two later).
import { vi } from 'vitest'

export function debugConsole() {
  const lines: string[] = []
  for (const level of ['info', 'warn', 'error', 'table'] as const)
    vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line)))
  const find = (code: string) => lines.find((line) => line.startsWith(`[referral] ${code}:`))
  return {
    lines,
    /** The codes of the decision lines printed so far, in order. */
    codes: () => lines.map((line) => /^\[referral\] (\w+):/.exec(line)?.[1]).filter(Boolean),
    line: find,
    printed: (code: string) =>
      vi.waitFor(() => {
        const found = find(code)
        if (!found) throw new Error(`no ${code} line yet: ${JSON.stringify(lines)}`)
        return found
      }),
  }
}
