/** 0 to 99 as two digits. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'))

const DAY = 86_400_000
/** Days from 0000-03-01 to 1970-01-01: the count below starts its years in March, so a leap day ends each. */
const EPOCH_FROM_MARCH = 719_468
const DAYS_PER_400_YEARS = 146_097

/**
 * The UTC date and time of an instant as `Date#toISOString` writes them, `YYYY-MM-DD`, `between`, `HH:MM:SS`;
 * undefined for a year outside 0000–9999 (and an instant that is no date), which `toISOString` writes otherwise.
 *
 * The date is counted from the days since the epoch (civil from days, in the proleptic Gregorian calendar, as Date
 * counts them), not read from a Date: about two fifths of the time a call, and every event's dates go through it at
 * each load, in each built answer and in each feed's VEVENTs.
 */
export function utcClock(instant: number, between: string): string | undefined {
  // Date's own rounding of a time value (TimeClip): toward zero.
  const ms = Math.trunc(instant)
  const days = Math.floor(ms / DAY)
  const seconds = Math.floor((ms - days * DAY) / 1000)
  const fromMarch = days + EPOCH_FROM_MARCH
  const era = Math.floor(fromMarch / DAYS_PER_400_YEARS)
  const dayOfEra = fromMarch - era * DAYS_PER_400_YEARS
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  // Also false for NaN: an instant that is no date.
  if (!(year >= 0 && year <= 9999)) return undefined
  const hour = Math.floor(seconds / 3600)
  const minute = Math.floor(seconds / 60) % 60
  const date = `${TWO_DIGITS[Math.floor(year / 100)]}${TWO_DIGITS[year % 100]}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}`
  return `${date}${between}${TWO_DIGITS[hour]}:${TWO_DIGITS[minute]}:${TWO_DIGITS[seconds % 60]}`
}
