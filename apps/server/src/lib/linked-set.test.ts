import { describe, expect, it } from 'vitest';
import { type Linked, LinkedSet } from './linked-set.ts';

interface Item extends Linked<Item> {
  name: string;
}
const item = (name: string): Item => ({ name, previousLinked: null, nextLinked: null });
const names = (set: LinkedSet<Item>) => {
  const seen: string[] = [];
  set.forEach((entry) => {
    seen.push(entry.name);
  });
  return seen;
};

describe('LinkedSet', () => {
  it('adds once, removes from the front, the middle and the end, newest first', () => {
    const set = new LinkedSet<Item>();
    const [a, b, c, d] = [item('a'), item('b'), item('c'), item('d')];
    for (const entry of [a, b, c, d, b]) set.add(entry);
    expect(set.size).toBe(4);
    expect(names(set)).toEqual(['d', 'c', 'b', 'a']);
    expect(set.delete(c)).toBe(true);
    expect(set.delete(c)).toBe(false);
    expect(names(set)).toEqual(['d', 'b', 'a']);
    expect(set.delete(d)).toBe(true);
    expect(set.delete(a)).toBe(true);
    expect(names(set)).toEqual(['b']);
    expect([set.has(a), set.has(b), set.size]).toEqual([false, true, 1]);
    set.add(a);
    expect(names(set)).toEqual(['a', 'b']);
  });

  it('lets a visit delete the item it is given', () => {
    const set = new LinkedSet<Item>();
    for (const name of ['a', 'b', 'c', 'd']) set.add(item(name));
    set.forEach((entry) => {
      if (entry.name !== 'b') set.delete(entry);
    });
    expect(names(set)).toEqual(['b']);
    expect(set.size).toBe(1);
  });

  it('counts an object made without links as not in the set', () => {
    const set = new LinkedSet<Item>();
    set.add(item('a'));
    const outsider = { name: 'x' } as Item;
    expect(set.has(outsider)).toBe(false);
    expect(set.delete(outsider)).toBe(false);
    expect(set.size).toBe(1);
  });
});
