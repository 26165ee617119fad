// Ad hoc: generate once, then time a full build (used while profiling).
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { generateContent } from './content.ts'
import { createSiteBuilder } from '../../src/build/build.ts'
import { createStore } from '../../src/content/store.ts'
const [content, out] = process.argv.slice(2) as [string, string]
if (!existsSync(content)) await generateContent(content, Number(process.env.BENCH_EVENTS ?? 10000))
if (process.env.CLEAN) await rm(out, { recursive: true, force: true })
const SITE = { url: 'http://localhost:3000', host: 'localhost', apiRoot: '/wp-json', timezone: 'Asia/Singapore', defaultLang: 'en' as const, currency: 'SGD', currencySymbol: 'S$', currencyPosition: 'prefix' as const }
let t = performance.now()
const store = await createStore(content, { defaultLanguage: 'en', fallback: true })
console.log('load', Math.round(performance.now() - t))
const builder = createSiteBuilder({ store, site: SITE, out, publicUrl: 'https://cdn.example.org', perPage: 9, maxPerPage: 50 })
const r = await builder.full()
console.log(r, 'rss', Math.round(process.memoryUsage().rss / 1e6))
