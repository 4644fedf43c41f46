/**
 * The audit trail's event types, declared by the resources that record them: `{resource_type}.{action}`
 * (`employee.created`). A resource declares its types once (`declareEvents`, in its `events.ts`) and lists the
 * declaration in its module; `/events/filters/actions` and the patterns webhooks take are derived from those
 * declarations, never from a list kept by hand.
 */
export interface EventDeclaration<A extends string = string> {
  /** The resource type, the part before the dot. */
  readonly resource: string;
  readonly actions: readonly A[];
  /** The type of one action: `employee.created`. */
  type(action: A): string;
}

export function declareEvents<const A extends string>(resource: string, actions: readonly A[]): EventDeclaration<A> {
  return { resource, actions, type: (action) => `${resource}.${action}` };
}

/** Every event type of the API, from its modules' declarations. */
export class EventCatalogue {
  private readonly byResource = new Map<string, Set<string>>();

  constructor(declarations: Iterable<EventDeclaration>) {
    for (const d of declarations) {
      const actions = this.byResource.get(d.resource) ?? new Set<string>();
      for (const a of d.actions) actions.add(a);
      this.byResource.set(d.resource, actions);
    }
  }

  /** Resource types and their actions, each sorted. */
  resources(): { resource: string; actions: string[] }[] {
    return [...this.byResource]
      .map(([resource, actions]) => ({ resource, actions: [...actions].sort() }))
      .sort((a, b) => a.resource.localeCompare(b.resource));
  }

  /** Every type, sorted. */
  types(): string[] {
    return this.resources().flatMap((r) => r.actions.map((a) => `${r.resource}.${a}`));
  }

  has(type: string): boolean {
    const dot = type.indexOf('.');
    return dot > 0 && this.byResource.get(type.slice(0, dot))?.has(type.slice(dot + 1)) === true;
  }

  /**
   * Whether a webhook's pattern is known: `*`, a resource type and a star (`employee.*`), or a type of the
   * catalogue (`employee.created`).
   */
  knowsPattern(pattern: string): boolean {
    if (pattern === '*') return true;
    if (pattern.endsWith('.*')) return this.byResource.has(pattern.slice(0, -2));
    return this.has(pattern);
  }
}

/** Whether an event of `type` matches a webhook's pattern (`*`, `employee.*`, `employee.created`). */
export function matchesPattern(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}
