/**
 * Userinfo as a function from request to answer, checks in order: the form (form.ts), the token, the
 * client, then the person's claims for the granted scopes (access-rules.ts, claims.ts). Every check is
 * a named check looked up in `checks`, so that a fault can replace one (faults.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Incoming } from '../../exchange.ts';
import { firstFound } from '../../faults/modifiers.ts';
import type { AccessTable } from './access.ts';
import { CLIENT_RULES, LOOKUP_RULES, presentedBy, TOKEN_RULES } from './access-rules.ts';
import { refusalAnswer, userinfoAnswer, type UserinfoAnswer } from './answers.ts';
import { FORM_RULES, readForm } from './form.ts';

export const RULES = { ...FORM_RULES, ...TOKEN_RULES, ...LOOKUP_RULES, ...CLIENT_RULES };

/** The types the userinfo handler is written in, for its faults. */
export type UserinfoShape = { request: Incoming; answer: UserinfoAnswer; checks: typeof RULES; settings: Record<string, never> };

export interface UserinfoDeps {
  checks: UserinfoShape['checks'];
  table: AccessTable;
}

/** The caller's X-Request-Id, or a fresh one: every answer carries one (public facts). */
export function requestIdOf(request: Incoming): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && sent.trim() !== '' ? sent : randomUUID();
}

export function userinfoHandler({ checks, table }: UserinfoDeps): (request: Incoming) => UserinfoAnswer {
  return (request) => {
    const headers = { 'x-request-id': requestIdOf(request) };
    const form = readForm(request);
    const unreadable = firstFound(checks, FORM_RULES, form);
    if (unreadable) return refusalAnswer(unreadable.rule, unreadable.found, headers);
    const fields = new Map(form.pairs);

    const presented = presentedBy(request.headers.authorization, (token) => checks['token.lookup'](table, token));
    const unknown = firstFound(checks, TOKEN_RULES, presented);
    if (unknown) return refusalAnswer(unknown.rule, unknown.found, headers);
    // token.known refused a request whose token grants nothing.
    const grant = presented.grant!;

    const clientId = fields.get('client_id');
    const asked = { grant, clientId, secret: fields.get('client_secret'), client: checks['client.lookup'](table, clientId, grant) };
    const refused = firstFound(checks, CLIENT_RULES, asked);
    if (refused) return refusalAnswer(refused.rule, refused.found, headers);
    return userinfoAnswer(grant, headers);
  };
}
