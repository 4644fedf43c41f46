import type { BodyRule } from '../../platform/config.js';

interface CompiledRule {
  method: string | undefined;
  path: RegExp;
  mode: BodyRule['mode'];
}

/**
 * Which calls the request log keeps the bodies of (`ATRIUM_REQUEST_LOG_BODIES`, docs/admin.md, "Request log"): the
 * first rule whose method (if any) and path pattern match the call decides; a call no rule matches keeps them.
 */
export class BodyPolicy {
  private readonly rules: CompiledRule[];

  constructor(rules: readonly BodyRule[]) {
    this.rules = rules.map((r) => ({
      method: r.method,
      path: new RegExp(`^${r.path.split('*').map(escapeRegExp).join('.*')}$`),
      mode: r.mode,
    }));
  }

  /** Whether a call's bodies are kept: `url` its path and query (the query is not matched), `status` its answer's. */
  keeps(method: string, url: string, status: number): boolean {
    if (this.rules.length === 0) return true;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    for (const rule of this.rules) {
      if (rule.method !== undefined && rule.method !== method) continue;
      if (!rule.path.test(path)) continue;
      return rule.mode === 'on' || (rule.mode === 'errors' && status >= 400);
    }
    return true;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
