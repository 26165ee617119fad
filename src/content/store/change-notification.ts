import type { ContentRecord } from '../model/record-types.ts'

/** Hears a change, with the record as it was and as it is (either may be absent). */
export type ChangeListener = (before: ContentRecord | undefined, after: ContentRecord | undefined) => void

/** Who hears the store's changes, and the version that moves with each one. */
export interface ChangeNotification {
  /** Bumped on every change to the records (and to the media library), so caches can key on it. */
  readonly version: number
  onChange(listener: ChangeListener): void
  /** Hears every move of the version that no record's change tells: the media library. */
  onBump(listener: () => void): void
  /** A record changed: the version moves and every listener hears it. */
  tell(before: ContentRecord | undefined, after: ContentRecord | undefined): void
  /** Something served changed that is no record (the media library): the version moves, `onBump` hears. */
  bump(): void
  /** Starts the version at 0 again: a store counts changes from the moment it is loaded. */
  reset(): void
}

export function createChangeNotification(): ChangeNotification {
  const listeners: ChangeListener[] = []
  const bumps: (() => void)[] = []
  let version = 0
  return {
    get version() {
      return version
    },
    onChange: (listener) => void listeners.push(listener),
    onBump: (listener) => void bumps.push(listener),
    tell(before, after) {
      version++
      for (const listener of listeners) listener(before, after)
    },
    bump() {
      version++
      for (const listener of bumps) listener()
    },
    reset: () => void (version = 0),
  }
}
