import { setFlagsFromString } from 'node:v8';

/**
 * V8's view of an object's shape, for tests of hot-path objects: whether it keeps fast (in-object)
 * properties and whether two objects share one hidden class. An object literal with a getter whose
 * closure differs per call is turned into a dictionary (slow) object, and at 1,000 req/s such
 * per-call objects kept whole requests alive through young-generation collections
 * (docs/decisions/041-one-shape-per-call-object.md). Uses V8's natives syntax: the flag stays set for the
 * test process, and only the two functions below use it (it acts on code compiled after it).
 */
setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (
  object: object,
) => boolean;
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** True when every object has fast properties and all share the first one's hidden class. */
export function shareOneFastShape(...objects: object[]): boolean {
  const [first] = objects;
  if (first === undefined) return true;
  return objects.every((object) => hasFastProperties(object) && haveSameMap(first, object));
}
