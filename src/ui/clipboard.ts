// Copying a value the widget shows (the panel's link, the banner's promotion code): the one way
// both copy, and the one fallback.

/**
 * Puts `text` on the clipboard: through the clipboard API, or, where that is missing or refused,
 * by selecting `input` (which shows `text`) and the copy command. Whether it worked.
 */
export async function copyToClipboard(
  text: string,
  input: HTMLInputElement | null,
): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text)
      return true
    }
  } catch {
    // Denied or unavailable: try the selection below.
  }
  try {
    input?.select()
    return input !== null && document.execCommand('copy')
  } catch {
    return false
  }
}
