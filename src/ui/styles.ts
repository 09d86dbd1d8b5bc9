// The widget's styles, applied inside its shadow root through a constructable stylesheet, so a
// strict Content-Security-Policy (no 'unsafe-inline') needs no exception and host CSS cannot
// reach in. Hosts theme it from outside with the documented custom properties:
//   --referral-accent, --referral-background, --referral-text, --referral-radius, --referral-font
import { adopt } from './adopt-styles.ts'

// The dark palette, used by the dark theme and by the automatic one when the system is dark.
const dark = `
  --_accent: var(--referral-accent, #9aa8ff);
  --_on-accent: var(--referral-on-accent, #0b0d17);
  --_bg: var(--referral-background, #17181c);
  --_text: var(--referral-text, #f2f3f5);
  --_muted: var(--referral-muted, #b9bec9);
  --_border: var(--referral-border, #3a3d46);
  --_skeleton: #2a2c33;`

export const css = `
/* Nothing the page sets on its body (letter-spacing, text-transform, white-space…) is inherited. */
:host { all: initial; display: block !important; }
:host([hidden]) { display: none !important; }
.root {
  --_accent: var(--referral-accent, #3446c4);
  --_on-accent: var(--referral-on-accent, #ffffff);
  --_bg: var(--referral-background, #ffffff);
  --_text: var(--referral-text, #1b1d21);
  --_muted: var(--referral-muted, #4f5663);
  --_border: var(--referral-border, #c9ccd3);
  --_skeleton: #e6e8ec;
  --_radius: var(--referral-radius, 10px);
  box-sizing: border-box;
  min-width: 0;
  max-width: 100%;
  padding: 16px;
  border: 1px solid var(--_border);
  border-radius: var(--_radius);
  background: var(--_bg);
  color: var(--_text);
  font: 15px/1.45 var(--referral-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  text-align: start;
}
.root[data-theme="dark"] { ${dark} }
@media (prefers-color-scheme: dark) {
  .root[data-theme="auto"] { ${dark} }
}
.root[data-state="empty"] { display: none; }
*, *::before, *::after { box-sizing: border-box; }
.top { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 4px 12px; }
.headline { margin: 0; font-size: 1.2em; line-height: 1.3; font-weight: 700; overflow-wrap: anywhere; }
.badge { padding: 1px 8px; border-radius: 999px; border: 1px solid var(--_muted); color: var(--_muted); font-size: 0.8em; }
.rewards { margin: 8px 0 12px; padding: 0; list-style: none; color: var(--_muted); }
.rewards li { overflow-wrap: anywhere; }
.label { display: block; margin-bottom: 4px; font-weight: 600; font-size: 0.9em; }
.row { display: flex; flex-wrap: wrap; gap: 8px; }
.link, .skeleton {
  flex: 1 1 160px;
  min-width: 0;
  height: 40px;
  border-radius: calc(var(--_radius) * 0.6);
}
.link {
  padding: 0 10px;
  border: 1px solid var(--_border);
  background: var(--_bg);
  color: var(--_text);
  font: inherit;
  text-overflow: ellipsis;
}
.skeleton { background: var(--_skeleton); animation: pulse 1.4s ease-in-out infinite; }
.skeleton.line { flex: 0 1 60%; height: 1.55em; }
@keyframes pulse { 50% { opacity: 0.55; } }
button, .share a {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-height: 40px;
  padding: 0 14px;
  border-radius: calc(var(--_radius) * 0.6);
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  text-decoration: none;
}
.primary { border: 1px solid var(--_accent); background: var(--_accent); color: var(--_on-accent); }
.share { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 10px; }
.share a, .share button { border: 1px solid var(--_border); background: transparent; color: var(--_text); font-weight: 500; }
.note { margin: 10px 0 0; color: var(--_muted); font-size: 0.9em; }
.status { min-height: 1.45em; margin-top: 8px; font-size: 0.9em; color: var(--_muted); }
.status:empty { min-height: 0; margin: 0; }
a:focus-visible, button:focus-visible, input:focus-visible {
  outline: 3px solid var(--_accent);
  outline-offset: 2px;
}
.banner { display: flex; align-items: center; gap: 12px; justify-content: space-between; }
.banner p { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
.dismiss { flex: none; min-width: 40px; padding: 0; border: 1px solid var(--_border); background: transparent; color: var(--_text); }
/* With the friend's promotion code: the text, the code and its status in one column; × at the top. */
.banner-body { flex: 1; min-width: 0; }
.banner-body .label { margin-top: 10px; }
.banner-body ~ .dismiss { align-self: flex-start; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (prefers-reduced-motion: reduce) { .skeleton { animation: none; } }
.close { flex: none; min-width: 40px; margin-inline-start: auto; padding: 0; border: 1px solid var(--_border); background: transparent; color: var(--_text); font-size: 1.3em; line-height: 1; }
.dialog { width: min(480px, calc(100vw - 32px)); max-width: none; max-height: calc(100vh - 32px); padding: 0; border: 0; background: transparent; overflow: auto; }
.dialog::backdrop { background: rgb(0 0 0 / 0.5); }
.dialog .root { box-shadow: 0 12px 40px rgb(0 0 0 / 0.3); }
@media (prefers-reduced-motion: no-preference) { .dialog[open] { animation: rise 0.16s ease-out; } }
@keyframes rise { from { opacity: 0; transform: translateY(8px); } }
`

/** Puts the styles into a shadow root: one constructable stylesheet shared by every mount. */
export const adoptStyles = (root: ShadowRoot) => adopt(root, css)
