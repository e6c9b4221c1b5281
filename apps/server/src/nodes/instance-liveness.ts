/** One row of node_instances as reconciliation sees it. */
export interface InstanceBeat {
  id: string;
  /** Milliseconds, written by the instance's own clock. */
  heartbeat_at: number;
}

/**
 * Which of the processes holding ledger rows (`owners`) are dead, so their rows may be
 * reconciled. A process is dead when its node_instances row is gone (graceful shutdown deletes
 * it after the final flush; legacy rows carry instance id '') or its last heartbeat is older than
 * `deadAfterMs`. Nothing else counts: a process that was killed a moment ago still looks alive
 * until its heartbeat ages past the limit, so its rows wait for a later sweep rather than risk
 * touching a live process's reservations. `self` (the caller) is never dead. Clocks of the nodes
 * are assumed to agree within a few seconds (heartbeats are compared with the caller's clock).
 */
export function deadInstanceIds(
  owners: Iterable<string>,
  beats: readonly InstanceBeat[],
  now: number,
  deadAfterMs: number,
  self: string,
): string[] {
  const lastBeat = new Map(beats.map((beat) => [beat.id, Number(beat.heartbeat_at)]));
  const dead: string[] = [];
  for (const owner of new Set(owners)) {
    if (owner === self && owner !== '') continue;
    const beat = lastBeat.get(owner);
    if (beat === undefined || now - beat > deadAfterMs) dead.push(owner);
  }
  return dead;
}

/**
 * When the next sweep should look again so that a process that just stopped beating is
 * reconciled as soon as it counts as dead: the earliest moment one of the live-looking owners
 * crosses the limit (plus `marginMs`), or undefined when none holds rows.
 */
export function nextDeathCheck(
  owners: Iterable<string>,
  beats: readonly InstanceBeat[],
  now: number,
  deadAfterMs: number,
  self: string,
  marginMs = 250,
): number | undefined {
  const holding = new Set(owners);
  let earliest: number | undefined;
  for (const beat of beats) {
    if (beat.id === self || !holding.has(beat.id)) continue;
    const at = Number(beat.heartbeat_at) + deadAfterMs + marginMs;
    if (at > now && (earliest === undefined || at < earliest)) earliest = at;
  }
  return earliest;
}
