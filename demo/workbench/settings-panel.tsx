// The widget settings QA picks (key, campaign, signed-in user, locale, theme, consent); they
// live in the page's #hash (settings.ts) and reload the widgets.
import { useEffect, useState } from 'preact/hooks'
import type { CampaignSummary } from './api.ts'
import { Group } from './control-group.tsx'
import { KEY_CHOICES, keyChoice, LOCALES, type Settings, THEMES } from './settings.ts'

export function SettingsPanel(props: {
  settings: Settings
  update: (change: Partial<Settings>) => void
  campaigns: CampaignSummary[] | undefined
  reload: () => void
}) {
  const { settings, update, campaigns } = props
  const choice = keyChoice(settings.key)
  const [user, setUser] = useState(settings.user)
  useEffect(() => setUser(settings.user), [settings.user])
  const known = campaigns?.some((campaign) => campaign.id === settings.campaign)

  return (
    <Group id="settings-title" title="Widget settings">
      <div class="field">
        <label for="setting-key">Key</label>
        <select
          id="setting-key"
          value={settings.key}
          onChange={(event) => update({ key: event.currentTarget.value, campaign: '' })}
        >
          {KEY_CHOICES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      {!choice?.scope && (
        <p class="note">
          The widget must refuse this key: one console error, no panel, and no request to the
          service (see each widget and the requests view).
        </p>
      )}
      <div class="field">
        <label for="setting-campaign">Campaign</label>
        <select
          id="setting-campaign"
          value={settings.campaign}
          disabled={!choice?.scope}
          onChange={(event) => update({ campaign: event.currentTarget.value })}
        >
          <option value="">Newest active (no data-campaign)</option>
          {campaigns?.map((campaign) => (
            <option key={campaign.id} value={campaign.id}>
              {campaign.name} · {campaign.status}
            </option>
          ))}
          {settings.campaign && !known && (
            <option value={settings.campaign}>{settings.campaign} (not in the list)</option>
          )}
        </select>
      </div>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault()
          update({ user: user.trim() })
        }}
      >
        <label for="setting-user">Signed-in user</label>
        <input
          id="setting-user"
          class="mono"
          value={user}
          placeholder="signed out"
          autocomplete="off"
          spellcheck={false}
          onInput={(event) => setUser(event.currentTarget.value)}
        />
        <button type="submit">Sign in</button>
        <button
          type="button"
          disabled={settings.user === ''}
          onClick={() => {
            setUser('')
            update({ user: '' })
          }}
        >
          Sign out
        </button>
      </form>
      <p class="muted small" data-testid="signed-in">
        {settings.user ? `Signed in as ${settings.user}` : 'Signed out: the panel asks to sign in'}
      </p>
      <div class="two wide-first">
        <div class="field">
          <label for="setting-locale">Locale</label>
          <select
            id="setting-locale"
            value={settings.locale}
            onChange={(event) => update({ locale: event.currentTarget.value })}
          >
            {LOCALES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="setting-theme">Theme</label>
          <select
            id="setting-theme"
            value={settings.theme}
            onChange={(event) => {
              const theme = THEMES.find((value) => value === event.currentTarget.value)
              if (theme) update({ theme })
            }}
          >
            {THEMES.map((theme) => (
              <option key={theme} value={theme}>
                {theme}
              </option>
            ))}
          </select>
        </div>
      </div>
      <label class="check" for="setting-consent">
        <input
          id="setting-consent"
          type="checkbox"
          checked={settings.consentRequired}
          onChange={(event) => update({ consentRequired: event.currentTarget.checked })}
        />
        <span>Consent required (data-consent="required")</span>
      </label>
      <button type="button" onClick={props.reload}>
        Reload widgets
      </button>
    </Group>
  )
}
