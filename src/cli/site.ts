import type { Config } from '../config.ts'
import type { Site } from '../context/site.ts'

/** Site facts from the config; the public URL defaults to the address the server listens on. */
export function siteOf(config: Config, port: number): Site {
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  const url = config.site_url || `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  return {
    url,
    name: config.site_name,
    description: config.site_description,
    host: new URL(url).hostname,
    apiRoot: config.api_root,
    timezone: config.timezone,
    defaultLang: config.default_language,
    currency: config.currency,
    currencySymbol: config.currency_symbol,
    currencyPosition: config.currency_position,
  }
}
