/** How a subsystem closes, and what must still be open while it does. */
export interface SubsystemClose<Name extends string> {
  /**
   * The subsystems this one uses while it runs and while it closes: each of them closes only
   * after this one has closed.
   */
  needs?: readonly Name[];
  /**
   * A base subsystem (the databases) is needed by every subsystem that is not a base one: it
   * closes after all of them. A base subsystem may need only base subsystems.
   */
  base?: boolean;
  /** Stops the subsystem: timers, connections, and a final write of what it holds. */
  close: () => Promise<void> | void;
}

/** Where shutdown reports its order and the closes that failed (pino's logger fits). */
export interface LifecycleLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

interface Registered<Name extends string> {
  needs: readonly Name[];
  base: boolean;
  close: () => Promise<void> | void;
}

export interface LifecycleOptions {
  /**
   * Keeps the registrations in reverse order (a test hook): the close order must not change,
   * since it is computed from the declared needs and the names only.
   */
  reverseRegistrations?: boolean;
}

/**
 * The subsystems of one app and the order they close in. Each subsystem registers its own close
 * where it is built, naming the subsystems it needs; shutdown closes a subsystem only once every
 * subsystem that needs it has closed, so the order follows the declared needs, not the order of
 * registration. Subsystems that no need orders close in the order of their names, so the whole
 * order is the same however registration is arranged. A close that fails is reported and the
 * others still run, the base subsystems (the databases) last. A need that closes a circle is
 * refused when it is registered; a need naming a subsystem never registered is refused by
 * `closeOrder()`, which start-up calls once so that a misspelt need fails the start.
 */
export class Lifecycle<Name extends string = string> {
  private readonly subsystems = new Map<Name, Registered<Name>>();
  /** Registration order (reversed by the test hook); only error messages and listings use it. */
  private registrationOrder: Name[] = [];
  private closing: Promise<void> | null = null;

  constructor(private readonly options: LifecycleOptions = {}) {}

  /** Registers `name`; throws when it is registered already, closing has begun, or it closes a circle. */
  register(name: Name, subsystem: SubsystemClose<Name>): void {
    if (this.closing) throw new Error(`subsystem "${name}" registered while the app is closing`);
    if (this.subsystems.has(name)) throw new Error(`subsystem "${name}" is registered twice`);
    const needs = [...new Set(subsystem.needs ?? [])];
    const base = subsystem.base ?? false;
    if (base) {
      const above = needs.filter((need) => this.subsystems.get(need)?.base === false);
      if (above.length > 0) {
        throw new Error(`base subsystem "${name}" may need only base subsystems, not ${above.join(', ')}`);
      }
    } else {
      const baseNeeders = [...this.subsystems].filter(
        ([, other]) => other.base && other.needs.includes(name),
      );
      if (baseNeeders.length > 0) {
        throw new Error(`subsystem "${name}" is needed by base subsystem "${baseNeeders[0]![0]}"`);
      }
    }
    const circle = this.pathBack(name, needs);
    if (circle) throw new Error(`subsystems would close in a circle: ${[name, ...circle].join(' → ')}`);
    this.subsystems.set(name, { needs, base, close: subsystem.close });
    if (this.options.reverseRegistrations) this.registrationOrder.unshift(name);
    else this.registrationOrder.push(name);
  }

  /** The registered names in registration order (reversed under the test hook). */
  registered(): Name[] {
    return [...this.registrationOrder];
  }

  /**
   * The close order: a subsystem comes after every subsystem that needs it (a base one after
   * every other one); among those free to close, the first by name. Throws when a need names a
   * subsystem that is not registered.
   */
  closeOrder(): Name[] {
    for (const [name, subsystem] of this.entries()) {
      const missing = subsystem.needs.filter((need) => !this.subsystems.has(need));
      if (missing.length > 0) {
        throw new Error(`subsystem "${name}" needs ${missing.join(', ')}, which no subsystem registered`);
      }
    }
    return this.order();
  }

  /** The close order, a need on a name never registered counting as met (nothing to wait for). */
  private order(): Name[] {
    const open = new Set(this.registrationOrder);
    const order: Name[] = [];
    while (open.size > 0) {
      const free = [...open].filter((name) => this.isFree(name, open)).sort();
      // Registration refuses circles, so something is always free.
      const next = free[0]!;
      order.push(next);
      open.delete(next);
    }
    return order;
  }

  /**
   * Closes every subsystem in `closeOrder()`, one after the other; a close that throws is reported
   * and the rest still run. Calling it again returns the same shutdown.
   */
  close(log: LifecycleLog): Promise<void> {
    this.closing ??= this.closeAll(log);
    return this.closing;
  }

  private async closeAll(log: LifecycleLog): Promise<void> {
    // Not `closeOrder()`: a start that failed on a misspelt need still closes what it opened.
    const order = this.order();
    log.info({ order, registered: this.registered() }, 'closing subsystems');
    for (const name of order) {
      try {
        await this.subsystems.get(name)!.close();
      } catch (error) {
        log.error({ err: error, subsystem: name }, 'shutdown step failed');
      }
    }
  }

  private entries(): Array<[Name, Registered<Name>]> {
    return this.registrationOrder.map((name) => [name, this.subsystems.get(name)!]);
  }

  /** Free to close: no open subsystem needs it, and a base one waits for every non-base one. */
  private isFree(name: Name, open: ReadonlySet<Name>): boolean {
    const subsystem = this.subsystems.get(name)!;
    for (const other of open) {
      if (other === name) continue;
      const otherSubsystem = this.subsystems.get(other)!;
      if (otherSubsystem.needs.includes(name)) return false;
      if (subsystem.base && !otherSubsystem.base) return false;
    }
    return true;
  }

  /** A chain of needs from `needs` back to `name` (a circle), or null. */
  private pathBack(name: Name, needs: readonly Name[]): Name[] | null {
    const seen = new Set<Name>();
    const walk = (from: Name): Name[] | null => {
      if (from === name) return [name];
      if (seen.has(from)) return null;
      seen.add(from);
      for (const next of this.subsystems.get(from)?.needs ?? []) {
        const path = walk(next);
        if (path) return [from, ...path];
      }
      return null;
    };
    for (const need of needs) {
      const path = walk(need);
      if (path) return path;
    }
    return null;
  }
}
