/** The protocol revision that ended sessions and `initialize`; every earlier revision (a date) is a 2025-era one. */
export const MODERN_REVISION = '2026-07-28';

/** Whether `version` is a 2025-era revision, whose Streamable HTTP connections have sessions. */
export const isSessionRevision = (version: string | undefined): boolean =>
  version !== undefined && version < MODERN_REVISION;
