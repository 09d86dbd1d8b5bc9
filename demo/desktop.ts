// Whether `npm start` should open the demo in a browser: only where someone can see one. A server,
// a container or CI has no desktop, and trying there printed a stack trace (spawn xdg-open ENOENT).

/** The parts of the environment the answer depends on. */
export interface DesktopHints {
  platform: NodeJS.Platform
  env: Readonly<Record<string, string | undefined>>
}

const isSet = (value: string | undefined) =>
  value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false'

export function hasDesktop({ platform, env }: DesktopHints): boolean {
  if (isSet(env.CI)) return false
  // The convention Vite and create-react-app share for "never open a browser".
  if (env.BROWSER?.toLowerCase() === 'none') return false
  if (platform === 'darwin' || platform === 'win32') return true
  // Linux and the BSDs: a browser can only appear on an X11 or Wayland display.
  return isSet(env.DISPLAY) || isSet(env.WAYLAND_DISPLAY)
}
