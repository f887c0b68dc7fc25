/**
 * Who may call what, the sandbox's own reading of spec 5.5 and the vendor's facts (how often: ../rates.ts):
 * a bearer token with scopes. Scope names are not published: the sandbox invents one per
 * operation group ("business:cards", ...). The development token holds every scope, the token without
 * a scope holds none.
 */

/** Operation groups by path, first match wins; each is also a scope `business:<group>`. */
const GROUPS: Array<[RegExp, string]> = [
  [/^\/api\/v\d+\/checkout\//, 'checkout'],
  [/^\/api\/(private\/ndfl3|v1\/ndfl-3)\//, 'ndfl3'],
  [/^\/api\/v1\/nominal-accounts\//, 'nominal-accounts'],
  [/^\/api\/v\d+\/(checks|agreements|requests)(\/|$)/, 'direct-debits'],
  [/^\/api\/v\d+\/(statement|account-operations|bank-statement|bank-accounts)(\/|$)/, 'accounts'],
  [/^\/api\/v1\/payment\//, 'payments'],
  [/^\/api\/v\d+\/self-employed\//, 'self-employed'],
  [/^\/api\/v1\/salary\//, 'salary'],
  [/^\/api\/v1\/(invoice|openapi\/invoice)\//, 'invoices'],
  [/^\/api\/v\d+\/card(\/|$)/, 'cards'],
  [/^\/api\/v1\/individual\//, 'individual'],
  [/^\/api\/v1\/company(\/|$)/, 'company'],
  [/^\/api\/v1\/counterparty\//, 'counterparty'],
  [/^\/api\/v1\/loyalty\//, 'loyalty'],
  [/^\/api\/v1\/special-accounts\//, 'special-accounts'],
  [/^\/api\/v1\/tacq\//, 'acquiring'],
  [/^\/api\/v1\/e-invoice(\/|$)/, 'e-invoice'],
  [/^\/api\/v1\/safe-deal\//, 'safe-deal'],
  [/^\/api\/v1\/delivery\//, 'delivery'],
  [/^\/tls\/api\/v1\/qualified-digital-signature\//, 'signature'],
  [/^\/api\/offline\/partners\//, 'offline-credit'],
];

export function groupOf(template: string): string {
  return GROUPS.find(([re]) => re.test(template))?.[1] ?? 'other';
}

export function scopeOf(template: string): string {
  return `business:${groupOf(template)}`;
}

export const ALL_SCOPES = [...new Set([...GROUPS.map(([, g]) => g), 'other'])].map((g) => `business:${g}`);

export function bearerOf(authorization: string | undefined): string | undefined {
  const token = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  return token && token.length > 0 ? token : undefined;
}
