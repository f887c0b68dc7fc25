/**
 * The safety gate: a staging target is somebody's real system. Every request carries the side-effect
 * class of its operation; the gate refuses, before any socket opens, what the target kind does not allow.
 *   sandbox     everything
 *   staging     read and write; destructive and money only when the target file allows each by name
 *   production  read only
 */
import { ToolError } from '../errors.ts';
import type { Target } from '../config/target.ts';

export type SideEffect = 'read' | 'write' | 'destructive' | 'money';

function allowedByList(list: boolean | string[], operation: string): boolean {
  return list === true || (Array.isArray(list) && list.includes(operation));
}

/** Why the request may not be sent, or undefined when it may. */
export function refusal(target: Pick<Target, 'kind' | 'safety' | 'name'>, sideEffect: SideEffect, operation: string): string | undefined {
  if (target.kind === 'sandbox' || sideEffect === 'read') return undefined;
  if (target.kind === 'production') {
    return `safety gate: ${operation} is a ${sideEffect} operation and target "${target.name}" is of kind production (read only)`;
  }
  if (sideEffect === 'write') return undefined;
  const key = sideEffect === 'money' ? 'allowMoney' : 'allowDestructive';
  if (allowedByList(target.safety[key], operation)) return undefined;
  return `safety gate: ${operation} is a ${sideEffect} operation; target "${target.name}" (kind ${target.kind}) does not list it in safety.${key}`;
}

export function assertAllowed(target: Pick<Target, 'kind' | 'safety' | 'name'>, sideEffect: SideEffect, operation: string): void {
  const reason = refusal(target, sideEffect, operation);
  if (reason) throw new ToolError('SAFETY_REFUSED', reason);
}

/** Rate-limit bursts go to loopback targets, or elsewhere only when the target file allows them. */
export function assertBurstAllowed(target: Pick<Target, 'safety' | 'name'>, url: string): void {
  const host = new URL(url).hostname;
  const loopback = host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host);
  if (!loopback && !target.safety.allowBursts) {
    throw new ToolError('BURST_NOT_ALLOWED', `rate-limit burst against ${host} needs safety.allowBursts: true in target "${target.name}"`);
  }
}
