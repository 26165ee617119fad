/** The languages Almanac serves, in the order the root route lists them. */
export const LANGUAGES = ['en', 'zh-hans', 'ms', 'ta'] as const

export type Lang = (typeof LANGUAGES)[number]

/** Each language's name in its own script, for the root route. */
export const LANGUAGE_NAMES: Record<Lang, string> = {
  en: 'English',
  'zh-hans': '简体中文',
  ms: 'Bahasa Melayu',
  ta: 'தமிழ்',
}

/** Whether a string is one of the served language codes. */
export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
}
