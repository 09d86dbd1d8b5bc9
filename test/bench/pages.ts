// The pages the benchmark loads: the same shop page blank, with the widget (a quiet visit: the tag
// alone, nothing to record; or with its panel), and with each vendor's official snippet.
import { POSTHOG_TOKEN, PUBLIC_KEY, SEGMENT_WRITE_KEY } from './common.ts'

export type ScenarioName = 'blank' | 'ours-quiet' | 'ours-panel' | 'analytics-next' | 'posthog-js'

export interface Scenario {
  name: ScenarioName
  label: string
  /** The mark that says the library is ready (see instrument() in instruments.ts). */
  readyMark: 'load' | 'api' | 'panel' | 'ready'
  readyMeaning: string
  /** Which origin serves the library: its requests are the ones counted. */
  origin: 'service' | 'vendor' | 'none'
  html: string
}

const page = (body: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Shop</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
<main><h1>Shop</h1><p>A page of a shop.</p>${body}</main>
</body>
</html>`

const REFERRAL_STUB =
  '<script>window.Referral=window.Referral||function(){(Referral.q=Referral.q||[]).push(arguments)}</script>'

/** Segment's snippet (5.2.x), loading analytics.min.js from the vendor origin as its CDN. */
const segmentSnippet = (cdn: string) => `<script>
!function(){var a=window.analytics=window.analytics||[];if(a.initialize||a.invoked)return;a.invoked=!0;
a.methods=["trackSubmit","trackClick","trackLink","trackForm","pageview","identify","reset","group","track","ready","alias","debug","page","screen","once","off","on","addSourceMiddleware","addIntegrationMiddleware","setAnonymousId","addDestinationMiddleware","register"];
a.factory=function(m){return function(){var t=Array.prototype.slice.call(arguments);t.unshift(m);a.push(t);return a}};
for(var i=0;i<a.methods.length;i++){var k=a.methods[i];a[k]=a.factory(k)}
a.load=function(key,o){var t=document.createElement("script");t.type="text/javascript";t.async=!0;t.setAttribute("data-global-segment-analytics-key","analytics");t.src=${JSON.stringify(cdn)}+"/analytics.js/v1/"+key+"/analytics.min.js";var n=document.getElementsByTagName("script")[0];n.parentNode.insertBefore(t,n);a._loadOptions=o};
a._writeKey=${JSON.stringify(SEGMENT_WRITE_KEY)};a._cdn=${JSON.stringify(cdn)};a.SNIPPET_VERSION="5.2.1";
a.load(${JSON.stringify(SEGMENT_WRITE_KEY)});a.ready(function(){window.__benchMark("ready")});a.page()}();
</script>`

/** PostHog's snippet, loading array.js from the vendor origin as its api_host. */
const posthogSnippet = (host: string) => `<script>
!function(t,e){var o,n,p,r;e.__SV||(window.posthog=e,e._i=[],e.init=function(i,s,a){function g(t,e){var o=e.split(".");2==o.length&&(t=t[o[0]],e=o[1]),t[e]=function(){t.push([e].concat(Array.prototype.slice.call(arguments,0)))}}(p=t.createElement("script")).type="text/javascript",p.crossOrigin="anonymous",p.async=!0,p.src=s.api_host+"/static/array.js",(r=t.getElementsByTagName("script")[0]).parentNode.insertBefore(p,r);var u=e;for(void 0!==a?u=e[a]=[]:a="posthog",u.people=u.people||[],u.toString=function(t){var e="posthog";return"posthog"!==a&&(e+="."+a),t||(e+=" (stub)"),e},u.people.toString=function(){return u.toString(1)+".people (stub)"},o="init capture register register_once register_for_session unregister unregister_for_session getFeatureFlag getFeatureFlagPayload isFeatureEnabled reloadFeatureFlags updateEarlyAccessFeatureEnrollment getEarlyAccessFeatures on onFeatureFlags onSessionId getSurveys getActiveMatchingSurveys renderSurvey canRenderSurvey identify setPersonProperties group resetGroups setPersonPropertiesForFlags resetPersonPropertiesForFlags setGroupPropertiesForFlags resetGroupPropertiesForFlags reset get_distinct_id getGroups get_session_id get_session_replay_url alias set_config startSessionRecording stopSessionRecording sessionRecordingStarted captureException loadToolbar get_property getSessionProperty createPersonProfile opt_in_capturing opt_out_capturing has_opted_in_capturing has_opted_out_capturing clear_opt_in_out_capturing debug".split(" "),n=0;n<o.length;n++)g(u,o[n]);e._i.push([i,s,a])},e.__SV=1)}(document,window.posthog||[]);
posthog.init(${JSON.stringify(POSTHOG_TOKEN)},{api_host:${JSON.stringify(host)},person_profiles:"identified_only",opt_out_useragent_filter:true,loaded:function(){window.__benchMark("ready")}});
</script>`

/**
 * A landing page with the tag alone, where the bench marks the moment the service has confirmed
 * the arrival's click (its event:sent, asked for through the stub before the script loads).
 */
export const arrivalPage = (serviceUrl: string) =>
  page(`${REFERRAL_STUB}
<script>Referral('on', 'event:sent', function () { window.__benchMark('confirmed') })</script>
<script async src="${serviceUrl}/referral-widget.js" data-key="${PUBLIC_KEY}"></script>`)

export function scenarios(serviceUrl: string, vendorUrl: string): Scenario[] {
  const script = (attributes: string) =>
    `${REFERRAL_STUB}\n<script async src="${serviceUrl}/referral-widget.js" data-key="${PUBLIC_KEY}"${attributes}></script>`
  return [
    {
      name: 'blank',
      label: 'blank page',
      readyMark: 'load',
      readyMeaning: 'the load event',
      origin: 'none',
      html: page(''),
    },
    {
      name: 'ours-quiet',
      label: 'referral-widget, quiet visit',
      readyMark: 'api',
      readyMeaning:
        'window.Referral is the command API (the loader has run; nothing to record, so nothing more loads)',
      origin: 'service',
      html: page(script('')),
    },
    {
      name: 'ours-panel',
      label: 'referral-widget, with the panel',
      readyMark: 'panel',
      readyMeaning: '[data-part=root][data-state=ready] in the panel’s shadow root',
      origin: 'service',
      html: page(`<div data-referral-widget></div>\n${script(' data-user-id="alice"')}`),
    },
    {
      name: 'analytics-next',
      label: '@segment/analytics-next',
      readyMark: 'ready',
      readyMeaning: 'analytics.ready() callback',
      origin: 'vendor',
      html: page(segmentSnippet(vendorUrl)),
    },
    {
      name: 'posthog-js',
      label: 'posthog-js',
      readyMark: 'ready',
      readyMeaning: 'the init `loaded` callback',
      origin: 'vendor',
      html: page(posthogSnippet(vendorUrl)),
    },
  ]
}
