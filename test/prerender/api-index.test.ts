import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PUBLIC, usePreviewedBuild } from './previewed.ts'

const built = usePreviewedBuild()

/** A file of the build by its public URL, through the preview server (the host's one rewrite included). */
async function get(url: string) {
  const response = await fetch(`${built.host}${url.slice(PUBLIC.length)}`)
  return { status: response.status, body: response.status === 200 ? await response.json() : null }
}

describe('the static build writes the API index', () => {
  it('in every language, served at /wp-json/ and /wp-json like the live one', async () => {
    for (const path of ['/wp-json/', '/wp-json', '/ms/wp-json/', '/zh-hans/wp-json', '/ta/wp-json/']) {
      const { status, body } = await get(`${PUBLIC}${path}`)
      expect(status, path).toBe(200)
      expect(body.namespaces, path).toEqual(['calendar/events/v1'])
    }
    expect(JSON.parse(await readFile(join(built.out, 'wp-json.json'), 'utf8')).routes['/']).toBeDefined()
  })

  it('with links to the files, so a client can walk from the index to the lists and back', async () => {
    const index = (await get(`${PUBLIC}/wp-json/`)).body
    expect(index.routes['/']._links.self[0].href).toBe(`${PUBLIC}/wp-json.json`)
    const root = index.routes['/calendar/events/v1']._links.self[0].href
    expect(root).toBe(`${PUBLIC}/wp-json/calendar/events/v1.json`)
    const namespace = await get(root)
    expect(namespace.body._links.up[0].href).toBe(`${PUBLIC}/wp-json.json`)
    expect(
      (await get(index.routes['/calendar/events/v1/events']._links.self[0].href)).body.events.length,
    ).toBeGreaterThan(0)
    expect((await get(`${PUBLIC}/ms/wp-json/`)).body.routes['/']._links.self[0].href).toBe(`${PUBLIC}/ms/wp-json.json`)
  })

  it('and tells hosts that read _headers and _redirects where it is', async () => {
    const headers = await readFile(join(built.out, '_headers'), 'utf8')
    const redirects = await readFile(join(built.out, '_redirects'), 'utf8')
    expect(headers).toContain(`  Link: <${PUBLIC}/wp-json/>; rel="https://api.w.org/"`)
    expect(redirects).toContain('/wp-json  /wp-json.json  200\n')
    expect(redirects).toContain('/wp-json/  /wp-json.json  200\n')
    expect(redirects).toContain('/ms/wp-json  /ms/wp-json.json  200\n')
  })
})
