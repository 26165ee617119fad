import type { ContentRecord } from '../content/store.ts'

export interface Coordinates {
  lat: number
  lng: number
}

/** A venue's coordinates, when it has both. */
export function venueCoordinates(venue: ContentRecord): Coordinates | undefined {
  const { geo_lat: lat, geo_lng: lng } = venue.source.data
  return typeof lat === 'number' && typeof lng === 'number' ? { lat, lng } : undefined
}

const EARTH_RADIUS_KM = 6371.0088

/** Great-circle distance between two points (haversine), in km. */
export function distanceKm(a: Coordinates, b: Coordinates): number {
  const rad = Math.PI / 180
  const dLat = (b.lat - a.lat) * rad
  const dLng = (b.lng - a.lng) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}
